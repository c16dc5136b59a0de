package io.github.flashstock.devstack;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A standalone Nacos 3.1 server (config and naming, no console) in a JVM of its own, with embedded storage under
 * {@code <home>/nacos/}. Its HTTP API listens on the main port, its gRPC ports (what clients use) on main + 1000
 * and main + 1001, all on 127.0.0.1; its JRaft port (main - 1000) binds every interface
 * ({@link #portsOnEveryInterface()}). Ready means the readiness endpoint answers {@code ok} and, with auth on, the
 * admin user can log in.
 */
final class NacosServer extends Server {

    private static final Pattern ACCESS_TOKEN = Pattern.compile("\"accessToken\"\\s*:\\s*\"([^\"]+)\"");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    NacosServer(DevStackConfig config) {
        super(config);
    }

    @Override
    String name() {
        return "nacos";
    }

    @Override
    List<Integer> ports() {
        int main = config.nacosPort();
        return List.of(main, main + 1000, main + 1001, main - 1000);
    }

    /**
     * The JRaft port (main - 1000), which the naming module's metadata uses even standalone: Nacos's
     * {@code JRaftUtils.initRpcServer} hands the peer's address to SOFAJRaft's {@code GrpcRaftRpcFactory}
     * (rpc-grpc-impl 1.3.15), whose {@code createRpcServer} keeps only its port ({@code ServerBuilder.forPort}):
     * every interface, whatever {@code nacos.inetutils.ip-address} or {@code server.address} say.
     */
    @Override
    List<Integer> portsOnEveryInterface() {
        return List.of(config.nacosPort() - 1000);
    }

    @Override
    List<String> javaProcesses() {
        return List.of("nacos-server");
    }

    @Override
    void launch() {
        ensureDir(dir());
        write(dir().resolve("conf/application.properties"), applicationProperties());
        List<String> cmd = new ArrayList<>(List.of(javaExecutable(),
                "-Xms64m", "-Xmx320m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        cmd.addAll(classData("nacos-server"));
        cmd.addAll(List.of(
                "-Ddevstack.home=" + marker(),
                // Nacos writes its logs under ${user.home}/nacos/logs
                "-Duser.home=" + dir(),
                "-Dnacos.home=" + dir(),
                "-Dnacos.standalone=true",
                "-Dnacos.deployment.type=server",
                "-Dnacos.server.main.port=" + config.nacosPort(),
                "-Dnacos.remote.grpc.listen.ip=127.0.0.1",
                "-Dspring.config.additional-location=file:" + dir().resolve("conf") + "/",
                "-cp", Runtimes.classpath("nacos"),
                "io.github.flashstock.devstack.nacos.NacosLauncher"));
        Processes.launch(cmd, dir(), log("nacos-server"), pidFile("nacos-server"), Map.of());
    }

    private String applicationProperties() {
        boolean auth = config.nacosAuth();
        return """
                # Written by the devstack at each start; edit DevStackConfig or NacosServer instead.
                server.address=127.0.0.1
                nacos.inetutils.ip-address=127.0.0.1
                nacos.core.auth.system.type=nacos
                nacos.core.auth.enabled=%s
                nacos.core.auth.admin.enabled=%s
                nacos.core.auth.console.enabled=%s
                nacos.core.auth.caching.enabled=false
                nacos.core.auth.server.identity.key=devstack-server-identity
                nacos.core.auth.server.identity.value=%s
                nacos.core.auth.plugin.nacos.token.secret.key=%s
                nacos.core.auth.plugin.nacos.token.expire.seconds=18000
                server.tomcat.accesslog.enabled=false
                management.elastic.metrics.export.enabled=false
                management.influx.metrics.export.enabled=false
                nacos.istio.mcp.server.enabled=false
                nacos.k8s.sync.enabled=false
                nacos.naming.empty-service.auto-clean=true
                logging.level.root=WARN
                """.formatted(auth, auth, auth, UUID.randomUUID(), tokenSecret());
    }

    /** A fresh signing key for access tokens: Base64 of at least 32 bytes. */
    private static String tokenSecret() {
        return Base64.getEncoder().encodeToString(("devstack" + UUID.randomUUID() + UUID.randomUUID())
                .getBytes(StandardCharsets.UTF_8));
    }

    @Override
    void awaitReady() {
        Processes.await("Nacos (port " + config.nacosPort() + ") to answer its readiness check",
                config.startTimeout(), () -> {
                    // alive by PID: right after the launch its command line may not show our marker yet
                    if (!launchedAlive()) {
                        throw new IllegalStateException("the Nacos server exited; see " + log("nacos-server"));
                    }
                    return ready();
                });
        if (config.nacosAuth()) {
            // A new server with auth on has no admin until someone sets its password (a one-time call)
            post("/nacos/v3/auth/user/admin", Map.of("password", config.nacosPassword()));
            Processes.await("the Nacos admin user '" + config.nacosUsername() + "' to log in", config.startTimeout(),
                    () -> accessToken().isPresent());
        }
    }

    @Override
    boolean healthy() {
        return ready() && (!config.nacosAuth() || accessToken().isPresent());
    }

    private boolean ready() {
        return get("/nacos/v3/admin/core/state/readiness").filter(body -> body.contains("\"ok\"")).isPresent();
    }

    /** Logs in as the admin user; empty when auth is off or the login is refused. */
    Optional<String> accessToken() {
        if (!config.nacosAuth()) {
            return Optional.empty();
        }
        return post("/nacos/v1/auth/users/login",
                Map.of("username", config.nacosUsername(), "password", config.nacosPassword()))
                .map(ACCESS_TOKEN::matcher).filter(Matcher::find).map(m -> m.group(1));
    }

    /**
     * Registers a persistent instance at 127.0.0.1 (Nacos checks its port itself); true once Nacos accepted it.
     * Registering it again is harmless.
     */
    boolean registerPersistent(String service, String group, String cluster, int port) {
        return post("/nacos/v1/ns/instance", persistentInstance(service, group, cluster, port)).filter("ok"::equals)
                .isPresent();
    }

    /** Removes a persistent instance {@link #registerPersistent} made; true once Nacos accepted the removal. */
    boolean deregisterPersistent(String service, String group, String cluster, int port) {
        String query = form(persistentInstance(service, group, cluster, port));
        return send(HttpRequest.newBuilder(uri("/nacos/v1/ns/instance?" + query)).timeout(Duration.ofSeconds(3))
                .DELETE().build()).filter("ok"::equals).isPresent();
    }

    /** The fields naming a persistent instance at 127.0.0.1, with the access token when auth is on. */
    private Map<String, String> persistentInstance(String service, String group, String cluster, int port) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("serviceName", service);
        fields.put("groupName", group);
        fields.put("clusterName", cluster);
        fields.put("ip", "127.0.0.1");
        fields.put("port", Integer.toString(port));
        fields.put("ephemeral", "false");
        accessToken().ifPresent(t -> fields.put("accessToken", t));
        return fields;
    }

    private static String form(Map<String, String> fields) {
        StringBuilder body = new StringBuilder();
        fields.forEach((k, v) -> body.append(body.isEmpty() ? "" : "&").append(k).append('=')
                .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return body.toString();
    }

    private Optional<String> get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(3)).GET().build());
    }

    private Optional<String> post(String path, Map<String, String> fields) {
        return send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(3))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form(fields))).build());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + config.nacosPort() + path);
    }

    /** The body of a 200 answer; empty on any other answer or none. */
    private static Optional<String> send(HttpRequest request) {
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? Optional.of(response.body()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
