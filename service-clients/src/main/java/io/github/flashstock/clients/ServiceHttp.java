package io.github.flashstock.clients;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;

/**
 * What the clients of this module share: one {@link HttpClient} (HTTP/1.1, 2 s to connect) and one
 * {@link ObjectMapper} for the whole JVM, and the step from an HTTP answer to a value or a {@link ServiceProblem}.
 * Others of the harness that talk HTTP to the services' processes (health checks, the Seata console) use the same two.
 */
public final class ServiceHttp {

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(2))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    /**
     * Answers may carry fields a client does not know yet: they are skipped, never a failure. Bodies leave out what
     * is null (an optional setting not given), as the services read an absent member.
     */
    private static final ObjectMapper JSON = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);

    private ServiceHttp() {
    }

    public static HttpClient client() {
        return CLIENT;
    }

    public static ObjectMapper json() {
        return JSON;
    }

    /** A body as JSON; an empty object for no body or one that is not JSON. */
    public static JsonNode tree(String body) {
        try {
            return JSON.readTree(body == null || body.isBlank() ? "{}" : body);
        } catch (JsonProcessingException e) {
            return JSON.createObjectNode();
        }
    }

    /** A value as a JSON text. */
    public static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write " + value + " as JSON", e);
        }
    }

    /** An answer as it came: status, headers and the body as text. */
    record Reply(String request, int status, HttpHeaders headers, String body) {

        JsonNode tree() {
            return ServiceHttp.tree(body);
        }

        <T> T as(Class<T> type) {
            try {
                return JSON.readValue(body, type);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(request + " answered " + status + " with a body that is not a "
                        + type.getSimpleName() + ": " + ServiceProblem.excerpt(body), e);
            }
        }

        /** This reply, when its status is one of {@code expected}; else the problem it carries. */
        Reply expect(int... expected) {
            if (Arrays.stream(expected).noneMatch(s -> s == status)) {
                throw new ServiceProblem(request, status, headers.firstValue("Retry-After").orElse(null), body);
            }
            return this;
        }
    }

    /** A request to {@code url} with a JSON body of {@code value} (none when null) and a timeout. */
    static HttpRequest.Builder request(String url, String method, Object value, Duration timeout) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url)).timeout(timeout);
        if (value == null) {
            return builder.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return builder.header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(value instanceof String s ? s : write(value)));
    }

    /** Sends the request; no answer at all is a {@link ServiceUnreachable}. */
    static Reply send(HttpRequest request) {
        String name = request.method() + " " + request.uri();
        try {
            HttpResponse<String> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
            return new Reply(name, response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new ServiceUnreachable(name, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(name + ": interrupted", e);
        }
    }
}
