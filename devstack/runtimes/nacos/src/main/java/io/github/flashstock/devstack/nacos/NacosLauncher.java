package io.github.flashstock.devstack.nacos;

import com.alibaba.nacos.NacosServerBasicApplication;
import com.alibaba.nacos.NacosServerWebApplication;
import com.alibaba.nacos.core.listener.startup.NacosStartUp;
import com.alibaba.nacos.core.listener.startup.NacosStartUpManager;
import com.alibaba.nacos.sys.env.DeploymentType;
import com.alibaba.nacos.sys.env.EnvUtil;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Starts a standalone Nacos server without its console: the server jars on Maven Central ship no main class. A
 * Nacos server is two Spring Boot applications, the core (no web server: storage, consistency, members) and, as its
 * child, the web application that serves the HTTP open API and the gRPC ports the clients use. Each phase is
 * announced to Nacos's start-up manager first, which prepares the working directories and environment the phase
 * expects. Everything else comes from system properties set by the devstack ({@code nacos.home},
 * {@code nacos.server.main.port}, {@code spring.config.additional-location}, ...).
 */
public final class NacosLauncher {

    private NacosLauncher() {
    }

    public static void main(String[] args) {
        System.setProperty("nacos.standalone", System.getProperty("nacos.standalone", "true"));
        EnvUtil.setDeploymentType(DeploymentType.SERVER);

        NacosStartUpManager.start(NacosStartUp.CORE_START_UP_PHASE);
        ConfigurableApplicationContext core = new SpringApplicationBuilder(NacosServerBasicApplication.class)
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .run(args);

        NacosStartUpManager.start(NacosStartUp.WEB_START_UP_PHASE);
        new SpringApplicationBuilder(NacosServerWebApplication.class)
                .parent(core)
                .bannerMode(Banner.Mode.OFF)
                .run(args);
    }
}
