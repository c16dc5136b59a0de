package io.github.flashstock.sale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * What an operator does with a Nacos server, through its open API: publish and read a dataId, create a namespace,
 * list the healthy instances of a service; and publish the whole {@code nacos-config/} folder with the project's own
 * {@code nacos-config/import.sh}. Every call names the connection's namespace and group and, when it has
 * credentials, logs in first.
 */
public final class NacosAdmin {

    private final NacosConnection nacos;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ObjectMapper json = new ObjectMapper();

    public NacosAdmin(NacosConnection nacos) {
        this.nacos = nacos;
    }

    public NacosConnection connection() {
        return nacos;
    }

    /** Publishes {@code content} as dataId {@code dataId} (type yaml); true when Nacos accepted it. */
    public boolean publish(String dataId, String content) {
        Map<String, String> form = scoped();
        form.put("dataId", dataId);
        form.put("type", "yaml");
        form.put("content", content);
        HttpResponse<String> answer = send(post("/nacos/v1/cs/configs", form));
        return answer.statusCode() == 200 && answer.body().trim().equals("true");
    }

    /** The dataId's content as Nacos serves it now; empty when it has none. */
    public Optional<String> read(String dataId) {
        Map<String, String> query = scoped();
        query.put("dataId", dataId);
        HttpResponse<String> answer = send(get("/nacos/v1/cs/configs", query));
        return answer.statusCode() == 200 ? Optional.of(answer.body()) : Optional.empty();
    }

    /** Creates the connection's namespace (id and name alike); true when created or already there. */
    public boolean createNamespace() {
        if (nacos.namespace().isEmpty()) {
            return true;
        }
        Map<String, String> form = new LinkedHashMap<>(auth());
        form.put("namespaceId", nacos.namespace());
        form.put("namespaceName", nacos.namespace());
        form.put("namespaceDesc", "created by flashstock");
        HttpResponse<String> answer = send(post("/nacos/v3/admin/core/namespace", form));
        return answer.statusCode() == 200 || answer.body().contains("already exist");
    }

    /** {@code host:port} of each healthy instance Nacos lists for the service, in the connection's group. */
    public List<String> healthyInstances(String serviceName) {
        return instances(serviceName, true);
    }

    /** Every instance Nacos lists for the service in this namespace and group, healthy or not, as "ip:port". */
    public List<String> instances(String serviceName) {
        return instances(serviceName, false);
    }

    private List<String> instances(String serviceName, boolean healthyOnly) {
        Map<String, String> query = new LinkedHashMap<>(auth());
        query.put("serviceName", serviceName);
        query.put("groupName", nacos.group());
        if (!nacos.namespace().isEmpty()) {
            query.put("namespaceId", nacos.namespace());
        }
        query.put("healthyOnly", Boolean.toString(healthyOnly));
        HttpResponse<String> answer = send(get("/nacos/v1/ns/instance/list", query));
        if (answer.statusCode() != 200) {
            throw new IllegalStateException("instances of " + serviceName + ": " + answer.statusCode() + " "
                    + answer.body());
        }
        try {
            JsonNode hosts = json.readTree(answer.body()).path("hosts");
            List<String> result = new ArrayList<>();
            hosts.forEach(h -> result.add(h.path("ip").asText() + ":" + h.path("port").asInt()));
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * As the connection's user (an admin), creates a user whose role is named after it and grants that role each
     * permission: a resource ({@code namespace:group:config/dataId} or {@code ...:naming/service}, {@code *} for any
     * part) and an action ({@code r}, {@code w}, {@code rw}). Nacos 3's {@code /nacos/v3/auth} API.
     */
    public void createUser(String username, String password, Map<String, String> permissions) {
        Map<String, String> user = new LinkedHashMap<>(auth());
        user.put("username", username);
        user.put("password", password);
        expectOk(send(post("/nacos/v3/auth/user", user)), "user " + username);
        Map<String, String> role = new LinkedHashMap<>(auth());
        role.put("role", username + "-role");
        role.put("username", username);
        expectOk(send(post("/nacos/v3/auth/role", role)), "role of " + username);
        permissions.forEach((resource, action) -> {
            Map<String, String> grant = new LinkedHashMap<>(auth());
            grant.put("role", username + "-role");
            grant.put("resource", resource);
            grant.put("action", action);
            expectOk(send(post("/nacos/v3/auth/permission", grant)), action + " on " + resource);
        });
    }

    private static void expectOk(HttpResponse<String> answer, String what) {
        if (answer.statusCode() != 200) {
            throw new IllegalStateException("Nacos refused " + what + ": " + answer.statusCode() + " " + answer.body());
        }
    }

    /**
     * Registers {@code ip:port} as an instance of the service in this namespace and group, as anyone with the
     * registry's credentials (or none, with auth off) could; true when Nacos accepted it. Ephemeral, as the services'
     * own are (Nacos keeps one kind per service): without heartbeats Nacos marks it unhealthy after 15 s.
     */
    public boolean register(String serviceName, String ip, int port) {
        HttpResponse<String> answer = send(post("/nacos/v1/ns/instance", instance(serviceName, ip, port)));
        return answer.statusCode() == 200 && answer.body().trim().equals("ok");
    }

    /** Takes the instance out again. */
    public boolean deregister(String serviceName, String ip, int port) {
        Map<String, String> query = instance(serviceName, ip, port);
        HttpResponse<String> answer = send(HttpRequest.newBuilder(URI.create(base() + "/nacos/v1/ns/instance?"
                + encode(query))).timeout(Duration.ofSeconds(5)).DELETE().build());
        return answer.statusCode() == 200;
    }

    private Map<String, String> instance(String serviceName, String ip, int port) {
        Map<String, String> form = new LinkedHashMap<>(auth());
        form.put("serviceName", serviceName);
        form.put("groupName", nacos.group());
        if (!nacos.namespace().isEmpty()) {
            form.put("namespaceId", nacos.namespace());
        }
        form.put("ip", ip);
        form.put("port", Integer.toString(port));
        form.put("ephemeral", "true");
        return form;
    }

    /** Runs {@code nacos-config/import.sh} of the checkout at {@code root} against this connection. */
    public ImportRun importFolder(Path root) {
        try {
            Path output = Files.createTempFile("nacos-import", ".log");
            ProcessBuilder script = new ProcessBuilder("bash", root.resolve("nacos-config/import.sh").toString())
                    .redirectErrorStream(true).redirectOutput(output.toFile());
            script.environment().putAll(nacos.environment());
            Process run = script.start();
            boolean finished = run.waitFor(90, TimeUnit.SECONDS);
            if (!finished) {
                run.destroyForcibly();
            }
            String printed = Files.readString(output);
            Files.deleteIfExists(output);
            if (!finished) {
                throw new IllegalStateException("import.sh did not finish in 90 s: " + printed);
            }
            return new ImportRun(run.exitValue(), printed);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** What {@code import.sh} printed and its exit code. */
    public record ImportRun(int exitCode, String output) {
    }

    private Map<String, String> scoped() {
        Map<String, String> form = new LinkedHashMap<>(auth());
        form.put("group", nacos.group());
        if (!nacos.namespace().isEmpty()) {
            form.put("tenant", nacos.namespace());
        }
        return form;
    }

    private Map<String, String> auth() {
        if (!nacos.authenticated()) {
            return Map.of();
        }
        HttpResponse<String> login = send(post("/nacos/v1/auth/users/login",
                Map.of("username", nacos.username(), "password", nacos.password())));
        try {
            String token = login.statusCode() == 200 ? json.readTree(login.body()).path("accessToken").asText() : "";
            if (token.isEmpty()) {
                throw new IllegalStateException("Nacos login as " + nacos.username() + " refused: "
                        + login.statusCode() + " " + login.body());
            }
            return Map.of("accessToken", token);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private HttpRequest get(String path, Map<String, String> query) {
        return HttpRequest.newBuilder(URI.create(base() + path + "?" + encode(query))).timeout(Duration.ofSeconds(5))
                .GET().build();
    }

    private HttpRequest post(String path, Map<String, String> form) {
        return HttpRequest.newBuilder(URI.create(base() + path)).timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(encode(form))).build();
    }

    private String base() {
        String address = nacos.address().split(",")[0].trim();
        return address.startsWith("http://") || address.startsWith("https://") ? address : "http://" + address;
    }

    private static String encode(Map<String, String> fields) {
        return fields.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("Nacos at " + nacos.address() + " did not answer " + request.uri(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * {@code inventory-service.yaml} with one SKU's segment count set in {@code inventory.segments.skus}, the map
     * indented by four. The file has a second empty {@code skus} map, the allotments' ({@code inventory.mysql-store.allotment},
     * indented by six), which a plain replace of {@code "skus: {}"} would fill too: the SKU's allotment would become as
     * many units as it gets segments.
     */
    public static String withSegmentCount(String dataId, String skuId, int segments) {
        String empty = "\n    skus: {}\n";
        if (!dataId.contains(empty)) {
            throw new IllegalStateException("inventory-service.yaml has no empty inventory.segments.skus ('    skus: {}')"
                    + " to extend");
        }
        return dataId.replace(empty, "\n    skus: {" + skuId + ": " + segments + "}\n");
    }
}
