package io.github.flashstock.inventory.console.web;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * {@code /console} is the sale console's page ({@code static/console/index.html}). The page holds no data: it asks
 * the admin API for everything with the token its login form keeps for the tab, so it is served to anyone.
 */
@Configuration
class ConsolePage implements WebMvcConfigurer {

    @Override
    public void addViewControllers(ViewControllerRegistry registry) {
        registry.addRedirectViewController("/console", "/console/");
        registry.addViewController("/console/").setViewName("forward:/console/index.html");
    }
}
