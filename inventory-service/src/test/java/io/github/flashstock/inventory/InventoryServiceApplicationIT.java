package io.github.flashstock.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
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
    void describesItsApiWithOpenApi() {
        ResponseEntity<String> docs = http.getForEntity("/v3/api-docs", String.class);
        ResponseEntity<String> ui = http.getForEntity("/swagger-ui/index.html", String.class);

        assertThat(docs.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(docs.getBody()).contains("/reservations", "/skus/{skuId}/stock", "/admin/skus/{skuId}");
        assertThat(ui.getStatusCode()).isEqualTo(HttpStatus.OK);
    }

    @Test
    void exposesPrometheusMetricsToTheAdminTokenOnly() {
        ResponseEntity<String> anonymous = http.getForEntity("/actuator/prometheus", String.class);
        HttpHeaders admin = new HttpHeaders();
        admin.setBearerAuth(ADMIN_TOKEN);
        ResponseEntity<String> metrics = http.exchange("/actuator/prometheus", HttpMethod.GET, new HttpEntity<>(admin),
                String.class);

        assertThat(anonymous.getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);
        assertThat(anonymous.getBody()).doesNotContain("inventory_");
        assertThat(metrics.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(metrics.getBody()).contains("jvm_memory_used_bytes");
    }
}
