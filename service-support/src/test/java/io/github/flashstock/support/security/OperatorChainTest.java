package io.github.flashstock.support.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.github.flashstock.support.web.AdminTokens;
import java.security.Principal;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The operator chain as both services build it from {@link ServiceSecurity}: health's status for anyone, its details,
 * every other management endpoint, the API description and {@code /admin/**} for an admin's bearer token only, the
 * admin's name as the principal; failed sign-ins held off per address; whatever no rule names refused; the strict
 * headers on every answer.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.MOCK, properties = {
        "management.endpoint.health.show-details=when-authorized", "management.endpoint.health.roles=ADMIN",
        "management.endpoints.web.exposure.include=health,metrics,refresh,env",
        "flashstock.security.failed-sign-ins.failures=3", "flashstock.security.failed-sign-ins.period=1h"})
@AutoConfigureMockMvc
class OperatorChainTest {

    private static final String TOKEN = "health-details-token";
    private static final AtomicReference<Health> STORE = new AtomicReference<>(Health.up().withDetail("runId", "r1")
            .build());

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ServiceSecurity.class, Service.Routes.class})
    static class Service {
        @Bean
        AdminTokens adminToken() {
            return AdminTokens.resolve(TOKEN, "X_TOKEN", Map.of("alice", "alices-long-token"), "x.admin-tokens");
        }

        @Bean
        HealthIndicator store() {
            return STORE::get;
        }

        @Bean
        @Order(1)
        SecurityFilterChain operators(HttpSecurity http, AdminTokens tokens, SignInThrottle throttle)
                throws Exception {
            ServiceSecurity.stateless(http).securityMatcher(ServiceSecurity.operatorRoutes("/v3/api-docs"));
            ServiceSecurity.adminBearer(http, tokens, throttle);
            return http.authorizeHttpRequests(rules -> {
                ServiceSecurity.managementRules(rules, "/v3/api-docs", false);
                rules.anyRequest().hasAuthority(AdminTokenIntrospector.ROLE);
            }).build();
        }

        @Bean
        @Order(2)
        SecurityFilterChain everyoneElse(HttpSecurity http) throws Exception {
            return ServiceSecurity.stateless(http)
                    .authorizeHttpRequests(rules -> rules.requestMatchers("/open").permitAll().anyRequest().denyAll())
                    .build();
        }

        @RestController
        static class Routes {
            @PostMapping("/admin/who")
            String who(Principal principal) {
                return principal.getName();
            }

            @GetMapping("/open")
            String open() {
                return "open";
            }

            @GetMapping("/closed")
            String closed() {
                return "closed";
            }
        }
    }

    @Autowired
    MockMvc mvc;

    @AfterEach
    void up() {
        STORE.set(Health.up().withDetail("runId", "r1").build());
    }

    @Test
    void answersHealthsStatusToAnyoneWithoutItsComponents() throws Exception {
        mvc.perform(get("/actuator/health"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.status").value("UP"))
                .andExpect(jsonPath("$.components").doesNotExist());
        STORE.set(Health.down().withDetail("runId", "r1").build());
        mvc.perform(get("/actuator/health"))
                .andExpect(status().isServiceUnavailable())
                .andExpect(jsonPath("$.components").doesNotExist());
    }

    @Test
    void showsComponentsAndDetailsToTheAdmin() throws Exception {
        mvc.perform(get("/actuator/health").header("Authorization", "Bearer " + TOKEN))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.components.store.details.runId").value("r1"));
    }

    @Test
    void keepsEveryOtherManagementEndpointForTheAdmin() throws Exception {
        for (String path : new String[] {"/actuator/metrics", "/actuator/env", "/actuator", "/v3/api-docs",
                "/v3/api-docs/swagger-config", "/admin/anything"}) {
            mvc.perform(get(path)).andExpect(status().isUnauthorized())
                    .andExpect(header().string("WWW-Authenticate", "Bearer"))
                    .andExpect(jsonPath("$.type").value("urn:flashstock:problem:admin-token-required"));
        }
        mvc.perform(post("/actuator/refresh")).andExpect(status().isUnauthorized());
        mvc.perform(get("/actuator/metrics").header("Authorization", "Bearer " + TOKEN)).andExpect(status().isOk());
    }

    @Test
    void theAdminsNameIsThePrincipal() throws Exception {
        mvc.perform(post("/admin/who").header("Authorization", "Bearer " + TOKEN))
                .andExpect(status().isOk()).andExpect(content().string("admin"));
        mvc.perform(post("/admin/who").header("Authorization", "Bearer alices-long-token"))
                .andExpect(status().isOk()).andExpect(content().string("alice"));
    }

    @Test
    void holdsOffAnAddressThatKeepsFailingToSignIn() throws Exception {
        for (int i = 0; i < 3; i++) {
            mvc.perform(get("/actuator/metrics").header("Authorization", "Bearer guess-" + i)
                    .with(r -> { r.setRemoteAddr("192.0.2.7"); return r; }))
                    .andExpect(status().isUnauthorized());
        }
        // held off: even the right token waits, so that guessing costs time
        mvc.perform(get("/actuator/metrics").header("Authorization", "Bearer " + TOKEN)
                        .with(r -> { r.setRemoteAddr("192.0.2.7"); return r; }))
                .andExpect(status().isTooManyRequests())
                .andExpect(header().exists("Retry-After"))
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:too-many-failed-sign-ins"));
        // another address is not
        mvc.perform(get("/actuator/metrics").header("Authorization", "Bearer " + TOKEN)
                        .with(r -> { r.setRemoteAddr("192.0.2.8"); return r; }))
                .andExpect(status().isOk());
    }

    @Test
    void refusesWhatNoRuleNames() throws Exception {
        mvc.perform(get("/open")).andExpect(status().isOk());
        mvc.perform(get("/closed")).andExpect(status().isForbidden())
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:forbidden"));
        mvc.perform(get("/nowhere")).andExpect(status().isForbidden());
        mvc.perform(get("/closed").header("Authorization", "Bearer " + TOKEN)).andExpect(status().isForbidden());
    }

    @Test
    void refusesSpellingsTheFirewallTurnsAway() throws Exception {
        for (String path : new String[] {"/admin/who;x=1", "/actuator;a=b/metrics", "//actuator/metrics",
                "/admin/./who", "/open/../admin/who"}) {
            // set as sent: MockMvc's builder would read a leading "//" as an authority
            var response = mvc.perform(post("/").with(r -> {
                r.setRequestURI(path);
                r.setServletPath(path);
                return r;
            })).andReturn().getResponse();
            assertThat(response.getStatus()).as(path).isEqualTo(400);
            assertThat(response.getContentAsString()).as(path).contains("urn:flashstock:problem:malformed-request");
        }
    }

    @Test
    void everyAnswerCarriesTheStrictHeaders() throws Exception {
        mvc.perform(get("/open"))
                .andExpect(header().string("X-Content-Type-Options", "nosniff"))
                .andExpect(header().string("X-Frame-Options", "DENY"))
                .andExpect(header().string("Referrer-Policy", "no-referrer"))
                .andExpect(header().string("Content-Security-Policy", ServiceSecurity.CONTENT_SECURITY_POLICY));
        mvc.perform(get("/actuator/metrics"))
                .andExpect(header().string("Content-Security-Policy", ServiceSecurity.CONTENT_SECURITY_POLICY));
    }
}
