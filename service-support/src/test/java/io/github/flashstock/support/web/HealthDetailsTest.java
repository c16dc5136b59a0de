package io.github.flashstock.support.web;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

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
import org.springframework.test.web.servlet.MockMvc;

/**
 * The health endpoint as both services configure it outside profile devstack: its status for anyone (what a readiness
 * probe and the harness read), its components and details for the admin token only.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.MOCK, properties = {
        "management.endpoint.health.show-details=when-authorized", "management.endpoint.health.roles=ADMIN"})
@AutoConfigureMockMvc
class HealthDetailsTest {

    private static final String TOKEN = "health-details-token";
    private static final AtomicReference<Health> STORE = new AtomicReference<>(Health.up().withDetail("runId", "r1")
            .build());

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(AdminAccess.class)
    static class Service {
        @Bean
        AdminTokens adminToken() {
            return AdminTokens.resolve(TOKEN, "X_TOKEN");
        }

        @Bean
        HealthIndicator store() {
            return STORE::get;
        }
    }

    @Autowired
    MockMvc mvc;

    @AfterEach
    void up() {
        STORE.set(Health.up().withDetail("runId", "r1").build());
    }

    @Test
    void answersTheStatusToAnyoneWithoutItsComponents() throws Exception {
        mvc.perform(get("/actuator/health"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.status").value("UP"))
                .andExpect(jsonPath("$.components").doesNotExist());
    }

    @Test
    void answersDownToAnyoneAsWell() throws Exception {
        STORE.set(Health.down().withDetail("runId", "r1").build());

        mvc.perform(get("/actuator/health"))
                .andExpect(status().isServiceUnavailable())
                .andExpect(jsonPath("$.status").value("DOWN"))
                .andExpect(jsonPath("$.components").doesNotExist());
    }

    @Test
    void showsComponentsAndDetailsToTheAdmin() throws Exception {
        mvc.perform(get("/actuator/health").header("Authorization", "Bearer " + TOKEN))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.components.store.status").value("UP"))
                .andExpect(jsonPath("$.components.store.details.runId").value("r1"));
    }

    @Test
    void showsNothingMoreForAWrongToken() throws Exception {
        mvc.perform(get("/actuator/health").header("Authorization", "Bearer not-the-token-at-all"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.components").doesNotExist());
    }
}
