package io.github.flashstock.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

class InventoryServiceApplicationIT extends InventoryITSupport {

    @Autowired
    TestRestTemplate http;

    @Test
    void reportsHealthUpIncludingRedisAndTheDatabase() {
        ResponseEntity<String> health = http.getForEntity("/actuator/health", String.class);

        assertThat(health.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(health.getBody()).contains("\"status\":\"UP\"", "\"redis\"", "\"db\"");
    }

    @Test
    void exposesPrometheusMetrics() {
        ResponseEntity<String> metrics = http.getForEntity("/actuator/prometheus", String.class);

        assertThat(metrics.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(metrics.getBody()).contains("jvm_memory_used_bytes");
    }
}
