package io.github.flashstock.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.junit.DevStackTest;
import io.github.flashstock.devstack.junit.SharedStack;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DevStackTest(Component.REDIS)
class InventoryServiceApplicationIT {

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.host", () -> SharedStack.endpoints().redisHost());
        registry.add("spring.data.redis.port", () -> SharedStack.endpoints().redisPort());
    }

    @Autowired
    TestRestTemplate http;

    @Test
    void bootsAndReportsHealthUp() {
        ResponseEntity<String> health = http.getForEntity("/actuator/health", String.class);

        assertThat(health.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(health.getBody()).contains("\"status\":\"UP\"");
    }
}
