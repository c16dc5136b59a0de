package io.github.flashstock.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;

/**
 * Refuses to start a service that would take a secret (an admin token, a signing key, a password) from where
 * configuration is shared rather than kept: a Nacos dataId, or the local copies of the dataIds ({@code nacos-config/},
 * or wherever {@code flashstock.config.source} points). Whoever may write a dataId (the service's own Nacos user may
 * write one, the per-SKU settings') could otherwise make the service trust a token of their choosing. Secrets come from
 * the environment, the command line, a secrets mount ({@code spring.config.import: configtree:...}) or the service's
 * own packaged {@code application.yml} (which only names the environment variable).
 * <p>
 * A setting counts whatever spelling the source uses (relaxed binding reads {@code inventory.admin-token},
 * {@code inventory.adminToken} and {@code INVENTORY_ADMIN_TOKEN} alike), and so does the environment variable that a
 * placeholder in {@code application.yml} reads: a dataId that defines {@code INVENTORY_ADMIN_TOKEN} as a property would
 * otherwise fill {@code ${INVENTORY_ADMIN_TOKEN:}}.
 */
public final class SecretSources {

    /**
     * A secret setting: its name ({@code spring.datasource.password}), or a prefix of several
     * ({@code inventory.admin-tokens.}, ending in a dot), and the environment variable(s) that set it (for a prefix,
     * the variables' common beginning, {@code INVENTORY_CALLER_KEY_}).
     */
    public record Secret(String setting, List<String> variables) {

        public static Secret of(String setting, String... variables) {
            return new Secret(setting, List.of(variables));
        }

        boolean isPrefix() {
            return setting.endsWith(".");
        }
    }

    private SecretSources() {
    }

    /**
     * @throws SecretInSharedConfiguration naming every secret a shared source sets, and where
     */
    public static void check(ConfigurableEnvironment environment, List<Secret> secrets) {
        String configured = environment.getProperty(ConfigSourceSwitch.SOURCE, "");
        String sharedLocation = configured.replaceFirst("^(optional:)?(classpath\\*?:|file:|nacos:)", "");
        List<String> found = new ArrayList<>();
        for (PropertySource<?> source : environment.getPropertySources()) {
            if (!shared(source, sharedLocation) || !(source instanceof EnumerablePropertySource<?> enumerable)) {
                continue;
            }
            for (String property : enumerable.getPropertyNames()) {
                String name = normalised(property);
                for (Secret secret : secrets) {
                    boolean matches = secret.isPrefix()
                            ? name.startsWith(normalised(secret.setting()))
                            || secret.variables().stream().anyMatch(v -> name.startsWith(normalised(v)))
                            : name.equals(normalised(secret.setting()))
                            || secret.variables().stream().anyMatch(v -> name.equals(normalised(v)));
                    if (matches) {
                        found.add(property + " in " + source.getName() + " (set " + secret.setting()
                                + (secret.variables().isEmpty() ? "" : " with " + String.join(" or ",
                                secret.variables())) + " instead)");
                    }
                }
            }
        }
        if (!found.isEmpty()) {
            throw new SecretInSharedConfiguration(found);
        }
    }

    /** A Nacos dataId, or a local copy of one. */
    static boolean shared(PropertySource<?> source, String sharedLocation) {
        String type = source.getClass().getName();
        String name = source.getName();
        return type.startsWith("com.alibaba.cloud.nacos") || name.contains("nacos-config/")
                || !sharedLocation.isBlank() && !sharedLocation.equals("nacos-config/") && name.contains(sharedLocation);
    }

    /** The name as relaxed binding compares it: lower case, letters and digits only. */
    static String normalised(String name) {
        return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    }

    /** The start is refused: a secret comes from shared configuration. */
    public static final class SecretInSharedConfiguration extends IllegalStateException {
        public SecretInSharedConfiguration(List<String> found) {
            super("Refusing to start: a secret is set in shared configuration (a Nacos dataId or its local copy), which"
                    + " whoever may write that dataId could change. Set it in the environment (or a secrets mount)"
                    + " and take it out of the dataId: " + String.join("; ", found)
                    + " (docs/operations.md, \"Before production\")");
        }
    }
}
