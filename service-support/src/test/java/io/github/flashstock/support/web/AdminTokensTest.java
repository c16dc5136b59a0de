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

        assertThat(token.admin("a-long-enough-secret")).contains("admin");
        assertThat(token.admin("a-long-enough-secreT")).isEmpty();
        assertThat(token.admin("Bearer a-long-enough-secret")).isEmpty();
        assertThat(token.admin(null)).isEmpty();
        assertThat(token.toString()).doesNotContain("secret");
    }

    @Test
    void generatesAnUnguessableTokenWhenNoneIsConfigured() {
        AdminTokens first = AdminTokens.resolve("", "X_TOKEN");
        AdminTokens second = AdminTokens.resolve(null, "X_TOKEN");

        assertThat(first.adminToken()).hasSizeGreaterThanOrEqualTo(32).matches(AdminTokens.TOKEN_SYNTAX);
        assertThat(first.admin(first.adminToken())).contains("admin");
        assertThat(first.admin(second.adminToken())).as("a new token each time").isEmpty();
        assertThat(first.admin("")).isEmpty();
        assertThat(first.admin("change-me-devstack-admin-token")).isEmpty();
    }

    @Test
    void eachTokenNamesTheAdminItIdentifies() {
        AdminTokens tokens = AdminTokens.resolve("the-services-own-token", "X_TOKEN",
                Map.of("alice", "alices-own-long-token", "ops.bob-2", "bobs-own-long-token"), "x.admin-tokens");

        assertThat(tokens.admin("the-services-own-token")).contains("admin");
        assertThat(tokens.admin("alices-own-long-token")).contains("alice");
        assertThat(tokens.admin("bobs-own-long-token")).contains("ops.bob-2");
        assertThat(tokens.admin("nobodys-long-token")).isEmpty();
        assertThat(tokens.toString()).doesNotContain("token-");
    }

    @Test
    void namedTokensAloneGenerateNothing() {
        AdminTokens tokens = AdminTokens.resolve("", "X_TOKEN", Map.of("alice", "alices-own-long-token"),
                "x.admin-tokens");

        assertThat(tokens.admin("alices-own-long-token")).contains("alice");
        assertThat(tokens.toString()).isEqualTo("AdminTokens[alice]");
    }

    @Test
    void refusesATokenABearerHeaderCannotCarry() {
        assertThatThrownBy(() -> AdminTokens.resolve("a long enough secret", "X_TOKEN"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("X_TOKEN")
                .hasMessageContaining("bearer token cannot carry");
        assertThatThrownBy(() -> AdminTokens.resolve("", "X_TOKEN", Map.of("alice", "alices,own;long-token"),
                "x.admin-tokens")).hasMessageContaining("x.admin-tokens.alice");
        assertThat(AdminTokens.resolve("abc-DEF_123.~+/tokenz==", "X_TOKEN").admin("abc-DEF_123.~+/tokenz=="))
                .contains("admin");
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
