package io.github.flashstock.support.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AdminTokenTest {

    @Test
    void refusesTheDocumentedPlaceholder() {
        assertThatThrownBy(() -> AdminToken.resolve("change-me-devstack-admin-token", "INVENTORY_ADMIN_TOKEN"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("placeholder")
                .hasMessageContaining("INVENTORY_ADMIN_TOKEN");
    }

    @Test
    void refusesATokenShorterThanSixteenCharacters() {
        assertThatThrownBy(() -> AdminToken.resolve("short-secret", "X_TOKEN"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("at least 16");
    }

    @Test
    void acceptsOnlyTheConfiguredBearerToken() {
        AdminToken token = AdminToken.resolve("a-long-enough-secret", "X_TOKEN");

        assertThat(token.accepts("Bearer a-long-enough-secret")).isTrue();
        assertThat(token.accepts("Bearer a-long-enough-secreT")).isFalse();
        assertThat(token.accepts("a-long-enough-secret")).isFalse();
        assertThat(token.accepts(null)).isFalse();
        assertThat(token.toString()).doesNotContain("secret");
    }

    @Test
    void generatesAnUnguessableTokenWhenNoneIsConfigured() {
        AdminToken first = AdminToken.resolve("", "X_TOKEN");
        AdminToken second = AdminToken.resolve(null, "X_TOKEN");

        assertThat(first.bearerHeader()).startsWith("Bearer ").hasSizeGreaterThanOrEqualTo("Bearer ".length() + 32);
        assertThat(first.accepts(first.bearerHeader())).isTrue();
        assertThat(first.accepts(second.bearerHeader())).as("a new token each time").isFalse();
        assertThat(first.accepts("Bearer ")).isFalse();
        assertThat(first.accepts("Bearer change-me-devstack-admin-token")).isFalse();
    }
}
