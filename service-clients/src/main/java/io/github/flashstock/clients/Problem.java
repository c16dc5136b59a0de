package io.github.flashstock.clients;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * An {@code application/problem+json} document (RFC 9457) as both services write it: the standard members, and every
 * other member (the facts: {@code skuId}, {@code requested}, {@code orderId}, ...) in {@code properties}. A body that
 * is no problem document gives a problem with only the status.
 */
public record Problem(String type, String title, int status, String detail, String instance,
                      Map<String, JsonNode> properties) {

    /** What every problem type of the two services begins with. */
    public static final String TYPE_PREFIX = "urn:flashstock:problem:";

    private static final Set<String> STANDARD = Set.of("type", "title", "status", "detail", "instance");

    /** The problem in {@code body}; {@code status} where the body names none. */
    static Problem of(int status, JsonNode body) {
        Map<String, JsonNode> properties = new LinkedHashMap<>();
        body.fields().forEachRemaining(f -> {
            if (!STANDARD.contains(f.getKey())) {
                properties.put(f.getKey(), f.getValue());
            }
        });
        return new Problem(text(body, "type"), text(body, "title"), body.path("status").asInt(status),
                text(body, "detail"), text(body, "instance"), Map.copyOf(properties));
    }

    private static String text(JsonNode body, String member) {
        return body.path(member).isValueNode() ? body.path(member).asText() : "";
    }

    /** The type's name without {@link #TYPE_PREFIX} ({@code insufficient-stock}); the type as is otherwise. */
    public String name() {
        return type.startsWith(TYPE_PREFIX) ? type.substring(TYPE_PREFIX.length()) : type;
    }

    /** A fact of the problem as text, empty when absent. */
    public String property(String name) {
        JsonNode value = properties.get(name);
        return value == null || value.isNull() ? "" : value.asText();
    }
}
