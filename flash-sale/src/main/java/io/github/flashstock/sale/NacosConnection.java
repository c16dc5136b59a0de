package io.github.flashstock.sale;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where the services take their configuration and find each other: a Nacos server, a namespace (empty: the public
 * one), a group, and a user and password when the server checks identities (empty: it does not). The services and
 * {@code nacos-config/import.sh} read the same environment variables, which {@link #environment()} sets.
 */
public record NacosConnection(String address, String namespace, String group, String username, String password) {

    public NacosConnection {
        namespace = namespace == null ? "" : namespace;
        group = group == null || group.isBlank() ? "DEFAULT_GROUP" : group;
        username = username == null ? "" : username;
        password = password == null ? "" : password;
    }

    public static NacosConnection of(String address) {
        return new NacosConnection(address, "", "DEFAULT_GROUP", "", "");
    }

    public NacosConnection inNamespace(String namespaceId, String groupName) {
        return new NacosConnection(address, namespaceId, groupName, username, password);
    }

    public NacosConnection withCredentials(String user, String secret) {
        return new NacosConnection(address, namespace, group, user, secret);
    }

    public boolean authenticated() {
        return !username.isEmpty();
    }

    /** {@code NACOS_SERVER_ADDR} and, when set, {@code NACOS_NAMESPACE}, {@code NACOS_GROUP}, credentials. */
    public Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("NACOS_SERVER_ADDR", address);
        if (!namespace.isEmpty()) {
            env.put("NACOS_NAMESPACE", namespace);
        }
        env.put("NACOS_GROUP", group);
        if (authenticated()) {
            env.put("NACOS_USERNAME", username);
            env.put("NACOS_PASSWORD", password);
        }
        return env;
    }

    /** One line for reports: where configuration and discovery come from. */
    public String describe() {
        return "Nacos " + address + ", namespace " + (namespace.isEmpty() ? "public" : namespace) + ", group " + group
                + (authenticated() ? ", auth as " + username : ", auth off");
    }
}
