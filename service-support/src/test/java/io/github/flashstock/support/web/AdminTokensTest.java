package io.github.flashstock.support.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class AdminTokensTest {

    @Test
    void refusesTheDocumentedPlaceholder() {
        assertThatThrownBy(() -> AdminTokens.resolve("change-me-devstack-admin-token", "INVENTORY_ADMIN_TOKEN"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("placeholder")
                .hasMessageContaining("INVENTORY_ADMIN_TOKEN");
    }

    @Test
    void refusesATokenShorterThanSixteenCharacters() {
        assertThatThrownBy(() -> AdminTokens.resolve("short-secret", "X_TOKEN"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("at least 16");
    }

    @Test
    void acceptsOnlyTheConfiguredBearerToken() {
        AdminTokens token = AdminTokens.resolve("a-long-enough-secret", "X_TOKEN");

        assertThat(token.accepts("Bearer a-long-enough-secret")).isTrue();
        assertThat(token.accepts("Bearer a-long-enough-secreT")).isFalse();
        assertThat(token.accepts("a-long-enough-secret")).isFalse();
        assertThat(token.accepts(null)).isFalse();
        assertThat(token.toString()).doesNotContain("secret");
    }

    @Test
    void generatesAnUnguessableTokenWhenNoneIsConfigured() {
        AdminTokens first = AdminTokens.resolve("", "X_TOKEN");
        AdminTokens second = AdminTokens.resolve(null, "X_TOKEN");

        assertThat(first.bearerHeader()).startsWith("Bearer ").hasSizeGreaterThanOrEqualTo("Bearer ".length() + 32);
        assertThat(first.accepts(first.bearerHeader())).isTrue();
        assertThat(first.accepts(second.bearerHeader())).as("a new token each time").isFalse();
        assertThat(first.accepts("Bearer ")).isFalse();
        assertThat(first.accepts("Bearer change-me-devstack-admin-token")).isFalse();
    }

    @Test
    void eachTokenNamesTheAdminItIdentifies() {
        AdminTokens tokens = AdminTokens.resolve("the-services-own-token", "X_TOKEN",
                Map.of("alice", "alices-own-long-token", "ops.bob-2", "bobs-own-long-token"), "x.admin-tokens");

        assertThat(tokens.caller("Bearer the-services-own-token")).contains("admin");
        assertThat(tokens.caller("Bearer alices-own-long-token")).contains("alice");
        assertThat(tokens.caller("Bearer bobs-own-long-token")).contains("ops.bob-2");
        assertThat(tokens.caller("Bearer nobodys-long-token")).isEmpty();
        assertThat(tokens.toString()).doesNotContain("token-");
    }

    @Test
    void namedTokensAloneGenerateNothing() {
        AdminTokens tokens = AdminTokens.resolve("", "X_TOKEN", Map.of("alice", "alices-own-long-token"),
                "x.admin-tokens");

        assertThat(tokens.caller("Bearer alices-own-long-token")).contains("alice");
        assertThat(tokens.toString()).isEqualTo("AdminTokens[alice]");
    }

    @Test
    void refusesANameTheAuditCannotHold() {
        assertThatThrownBy(() -> AdminTokens.resolve("", "X_TOKEN",
                Map.of("a".repeat(AdminTokens.NAME_MAX + 1), "a-long-enough-secret"), "x.admin-tokens"))
                .hasMessageContaining("x.admin-tokens.aaaa")
                .hasMessageContaining(AdminTokens.NAME);
        assertThatThrownBy(() -> AdminTokens.resolve("", "X_TOKEN", Map.of("Alice Smith", "a-long-enough-secret"),
                "x.admin-tokens")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> AdminTokens.resolve("", "X_TOKEN", Map.of("admin", "a-long-enough-secret"),
                "x.admin-tokens")).hasMessageContaining("X_TOKEN");
    }

    @Test
    void refusesANamedTokenThatIsShortOrAPlaceholder() {
        assertThatThrownBy(() -> AdminTokens.resolve("", "X_TOKEN", Map.of("alice", "short"), "x.admin-tokens"))
                .hasMessageContaining("x.admin-tokens.alice")
                .hasMessageContaining("at least 16");
        assertThatThrownBy(() -> AdminTokens.resolve("", "X_TOKEN", Map.of("alice", "change-me-devstack-admin-token"),
                "x.admin-tokens")).hasMessageContaining("placeholder");
    }

    @Test
    void refusesOneTokenForTwoAdmins() {
        assertThatThrownBy(() -> AdminTokens.resolve("a-shared-long-secret", "X_TOKEN",
                Map.of("alice", "a-shared-long-secret"), "x.admin-tokens"))
                .hasMessageContaining("two admin tokens are the same");
    }
}
