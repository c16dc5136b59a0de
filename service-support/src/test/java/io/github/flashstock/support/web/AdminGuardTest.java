package io.github.flashstock.support.web;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

class AdminGuardTest {

    private static final String ADMIN_HEADER = "Bearer management-secret-1";

    private final AdminGuard guard = new AdminGuard(AdminTokens.resolve("management-secret-1", "X_TOKEN", Map.of(
            "alice", "alices-long-token"), "x.admin-tokens"), "/actuator", List.of("/v3/api-docs"));

    /** What went on past the guard: the request the endpoint saw, or null when the guard answered itself. */
    private record Outcome(MockHttpServletResponse response, HttpServletRequest passed) {
        int status() {
            return passed == null ? response.getStatus() : 299;
        }
    }

    private Outcome send(String method, String path, String authorization) throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest(method, path);
        if (authorization != null) {
            request.addHeader("Authorization", authorization);
        }
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();
        guard.doFilter(request, response, chain);
        return new Outcome(response, (HttpServletRequest) chain.getRequest());
    }

    @Test
    void refusesARefreshWithoutTheAdminToken() throws Exception {
        MockHttpServletResponse response = send("POST", "/actuator/refresh", null).response();

        assertThat(response.getStatus()).isEqualTo(401);
        assertThat(response.getContentType()).isEqualTo("application/problem+json");
        assertThat(response.getContentAsString()).contains("urn:flashstock:problem:admin-token-required");
    }

    @Test
    void refusesAWrongToken() throws Exception {
        assertThat(send("POST", "/actuator/loggers/ROOT", "Bearer nope").status()).isEqualTo(401);
    }

    @Test
    void letsARefreshWithTheAdminTokenThrough() throws Exception {
        assertThat(send("POST", "/actuator/refresh", ADMIN_HEADER).status()).isEqualTo(299);
    }

    @Test
    void guardsEverySpellingOfAManagementPath() throws Exception {
        assertThat(send("POST", "/actuator;x=y/refresh", null).status()).isEqualTo(401);
        assertThat(send("POST", "//actuator//refresh", null).status()).isEqualTo(401);
        assertThat(send("PUT", "/actuator", null).status()).isEqualTo(401);
        MockHttpServletRequest viaServletPath = new MockHttpServletRequest("POST", "/app/actuator/refresh");
        viaServletPath.setContextPath("/app");
        viaServletPath.setServletPath("/actuator/refresh");
        MockHttpServletResponse response = new MockHttpServletResponse();
        guard.doFilter(viaServletPath, response, new MockFilterChain());
        assertThat(response.getStatus()).isEqualTo(401);
    }

    @Test
    void leavesReadsAndTheApplicationsOwnEndpointsAlone() throws Exception {
        assertThat(send("GET", "/actuator/health", null).status()).isEqualTo(299);
        assertThat(send("GET", "/actuator/prometheus", null).status()).isEqualTo(299);
        assertThat(send("POST", "/orders", null).status()).isEqualTo(299);
        assertThat(send("POST", "/actuatorish", null).status()).isEqualTo(299);
    }

    @Test
    void refusesTheApiDescriptionWithoutTheAdminToken() throws Exception {
        assertThat(send("GET", "/v3/api-docs", null).status()).isEqualTo(401);
        assertThat(send("GET", "/v3/api-docs.yaml", null).status()).isEqualTo(401);
        assertThat(send("GET", "/v3/api-docs/swagger-config", null).status()).isEqualTo(401);
        assertThat(send("GET", "//v3/api-docs;x=y", null).status()).isEqualTo(401);
        assertThat(send("GET", "/v3/api-docs", ADMIN_HEADER).status()).isEqualTo(299);
    }

    @Test
    void leavesTheApiDescriptionOpenWhenNoPathIsAdminOnly() throws Exception {
        AdminGuard open = new AdminGuard(AdminTokens.resolve("management-secret-1", "X_TOKEN"), "/actuator/",
                List.of());
        MockFilterChain chain = new MockFilterChain();

        open.doFilter(new MockHttpServletRequest("GET", "/v3/api-docs"), new MockHttpServletResponse(), chain);

        assertThat(chain.getRequest()).isNotNull();
    }

    @Test
    void aRequestWithTheAdminTokenGoesOnAsTheAdmin() throws Exception {
        HttpServletRequest passed = send("GET", "/actuator/health", ADMIN_HEADER).passed();

        assertThat(passed.getUserPrincipal().getName()).isEqualTo("admin");
        assertThat(passed.isUserInRole("ADMIN")).isTrue();
        assertThat(AdminGuard.isAdmin(passed)).isTrue();
    }

    @Test
    void aRequestWithANamedTokenGoesOnAsThatAdmin() throws Exception {
        HttpServletRequest passed = send("POST", "/admin/skus/x/rebuild", "Bearer alices-long-token").passed();

        assertThat(passed.getUserPrincipal().getName()).isEqualTo("alice");
        assertThat(AdminGuard.isAdmin(passed)).isTrue();
    }

    @Test
    void anyOtherRequestGoesOnAsNobody() throws Exception {
        HttpServletRequest anonymous = send("GET", "/actuator/health", null).passed();
        HttpServletRequest wrongToken = send("POST", "/orders", "Bearer not-the-admin-token").passed();

        assertThat(anonymous.getUserPrincipal()).isNull();
        assertThat(AdminGuard.isAdmin(anonymous)).isFalse();
        assertThat(wrongToken.getUserPrincipal()).isNull();
        assertThat(AdminGuard.isAdmin(wrongToken)).isFalse();
    }
}
