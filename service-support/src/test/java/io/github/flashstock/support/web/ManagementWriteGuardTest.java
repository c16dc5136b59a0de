package io.github.flashstock.support.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

class ManagementWriteGuardTest {

    private final ManagementWriteGuard guard =
            new ManagementWriteGuard(AdminToken.resolve("management-secret-1", "X_TOKEN"), "/actuator");

    private MockHttpServletResponse send(String method, String path, String authorization) throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest(method, path);
        if (authorization != null) {
            request.addHeader("Authorization", authorization);
        }
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();
        guard.doFilter(request, response, chain);
        if (chain.getRequest() != null) {
            response.setStatus(299); // reached the endpoint
        }
        return response;
    }

    @Test
    void refusesARefreshWithoutTheAdminToken() throws Exception {
        MockHttpServletResponse response = send("POST", "/actuator/refresh", null);

        assertThat(response.getStatus()).isEqualTo(401);
        assertThat(response.getContentType()).isEqualTo("application/problem+json");
        assertThat(response.getContentAsString()).contains("urn:flashstock:problem:admin-token-required");
    }

    @Test
    void refusesAWrongToken() throws Exception {
        assertThat(send("POST", "/actuator/loggers/ROOT", "Bearer nope").getStatus()).isEqualTo(401);
    }

    @Test
    void letsARefreshWithTheAdminTokenThrough() throws Exception {
        assertThat(send("POST", "/actuator/refresh", "Bearer management-secret-1").getStatus()).isEqualTo(299);
    }

    @Test
    void guardsEverySpellingOfAManagementPath() throws Exception {
        assertThat(send("POST", "/actuator;x=y/refresh", null).getStatus()).isEqualTo(401);
        assertThat(send("POST", "//actuator//refresh", null).getStatus()).isEqualTo(401);
        assertThat(send("PUT", "/actuator", null).getStatus()).isEqualTo(401);
        MockHttpServletRequest viaServletPath = new MockHttpServletRequest("POST", "/app/actuator/refresh");
        viaServletPath.setContextPath("/app");
        viaServletPath.setServletPath("/actuator/refresh");
        MockHttpServletResponse response = new MockHttpServletResponse();
        guard.doFilter(viaServletPath, response, new MockFilterChain());
        assertThat(response.getStatus()).isEqualTo(401);
    }

    @Test
    void leavesReadsAndTheApplicationsOwnEndpointsAlone() throws Exception {
        assertThat(send("GET", "/actuator/health", null).getStatus()).isEqualTo(299);
        assertThat(send("GET", "/actuator/prometheus", null).getStatus()).isEqualTo(299);
        assertThat(send("POST", "/orders", null).getStatus()).isEqualTo(299);
        assertThat(send("POST", "/actuatorish", null).getStatus()).isEqualTo(299);
    }
}
