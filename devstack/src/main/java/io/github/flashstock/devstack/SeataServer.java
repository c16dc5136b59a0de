package io.github.flashstock.devstack;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * The Seata TC ({@code io.seata:seata-server:2.0.0}), one JVM per instance ({@code devstack.seata.instances}, 1 by
 * default). Each reads {@code ./config/application.yml} from its working directory, which the devstack writes before
 * each start: the first instance's is the server's directory, instance {@code n} (from 2) works in {@code tc-n/}.
 * Store: {@code file} (default) or {@code db} on the devstack's MariaDB, which several instances share. Registry:
 * {@code file} (default: clients use the first instance's address) or {@code nacos} (the devstack registers every
 * instance in its Nacos, see {@link #registerInNacos}, and clients look them up there).
 */
final class SeataServer extends Server {

    private static final Pattern TOKEN = Pattern.compile("\"data\"\\s*:\\s*\"([^\"]+)\"");
    /** The service name and group the TC registers under in Nacos when {@code devstack.seata.registry=nacos}. */
    public static final String NACOS_SERVICE = "seata-server";
    public static final String NACOS_GROUP = "SEATA_GROUP";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    SeataServer(DevStackConfig config) {
        super(config);
    }

    @Override
    String name() {
        return "seata";
    }

    private List<Integer> instances() {
        return IntStream.range(0, config.seataInstances()).boxed().toList();
    }

    /** The PID file's name of instance {@code i}: {@code seata-server}, then {@code seata-server-2}, ... */
    static String process(int instance) {
        return instance == 0 ? "seata-server" : "seata-server-" + (instance + 1);
    }

    private Path workDir(int instance) {
        return instance == 0 ? dir() : dir().resolve("tc-" + (instance + 1));
    }

    @Override
    List<Integer> ports() {
        List<Integer> ports = new ArrayList<>();
        for (int i : instances()) {
            ports.add(config.seataPort(i));
            ports.add(config.seataConsolePort(i));
        }
        return ports;
    }

    /**
     * The RPC ports: Seata 2.0.0's {@code NettyServerBootstrap.start()} binds {@code new InetSocketAddress(port)}, every
     * interface, and reads nothing but the port ({@code seata.server.service-port}); no setting names a host. The
     * console's port follows {@code server.address} (127.0.0.1).
     */
    @Override
    List<Integer> portsOnEveryInterface() {
        return instances().stream().map(config::seataPort).toList();
    }

    @Override
    int processCount() {
        return config.seataInstances();
    }

    @Override
    List<String> javaProcesses() {
        return instances().stream().map(SeataServer::process).toList();
    }

    @Override
    void launch() {
        for (int i : instances()) {
            launch(i);
        }
    }

    /** The instances that died (a drill killed one) start again; the others are left alone. */
    @Override
    boolean launchMissing() {
        for (int i : instances()) {
            if (Processes.livePid(pidFile(process(i)), marker()).isPresent()) {
                continue;
            }
            for (int port : List.of(config.seataPort(i), config.seataConsolePort(i))) {
                if (!Processes.isFree(port)) {
                    throw new IllegalStateException("Seata TC " + (i + 1) + "'s port " + port
                            + " is held by another process");
                }
            }
            launch(i);
        }
        return true;
    }

    private void launch(int instance) {
        Path work = ensureDir(workDir(instance));
        write(work.resolve("config/application.yml"), applicationYml(instance));
        String process = process(instance);
        List<String> cmd = new ArrayList<>(List.of(javaExecutable()));
        cmd.addAll(jvmOptions("devstack.seata.jvm-options",
                "-Xms64m -Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1"));
        cmd.addAll(classData(process));
        cmd.addAll(List.of(
                "-Ddevstack.home=" + marker(),
                "-Duser.home=" + work,
                "-Dlog.home=" + work.resolve("logs"),
                "-cp", Runtimes.classpath("seata-tc"),
                "io.seata.server.ServerApplication"));
        // Its RPC port binds every interface (portsOnEveryInterface), and XIDs carry the host's first non-loopback
        // address: harmless, clients find the TC through the configured grouplist or Nacos, never through the XID.
        // SERVER_NODE: the worker id in every transaction and branch id this TC makes; left unset, each TC derives
        // it from the host's MAC address, the same for every TC of one machine, and two TCs on one db store would
        // hand out the same ids.
        Processes.launch(cmd, work, log(process), pidFile(process),
                Map.of("SERVER_NODE", Integer.toString(instance + 1)));
    }

    String applicationYml(int instance) {
        String store = config.seataStore().equals("db") ? """
                    mode: db
                    db:
                      datasource: hikari
                      db-type: mysql
                      driver-class-name: com.mysql.jdbc.Driver
                      url: jdbc:mysql://127.0.0.1:%d/seata?useSSL=false&rewriteBatchedStatements=true
                      user: seata
                      password: %s
                      min-conn: 2
                      max-conn: 20
                """.formatted(config.mariadbPort(), config.dbPassword()) : """
                    mode: file
                    file:
                      dir: %s
                """.formatted(workDir(instance).resolve("sessionStore"));
        return """
                # Written by the devstack at each start; edit DevStackConfig or SeataServer instead.
                server:
                  port: %d
                  address: 127.0.0.1
                spring:
                  application:
                    name: seata-server
                logging:
                  config: classpath:logback-spring.xml
                  level:
                    root: WARN
                    io.seata: WARN
                console:
                  user:
                    username: %s
                    password: %s
                seata:
                  config:
                    type: file
                  registry:
                    type: file
                  server:
                    service-port: %d
                    # A session left in Committing or Rollbacking (the TC died between deciding and hearing back
                    # from every branch) is retried only once it is this old, counted from its begin: 130 s in
                    # Seata, devstack.seata.retry-dead-threshold-seconds here (60 s: above a live transaction's
                    # longest phase two, 30 s global timeout + 15 s TC-to-branch call, and a restarted TC finishes
                    # such sessions within a minute).
                    retry-dead-threshold: %d
                  store:
                %s  security:
                    secretKey: %s
                    tokenValidityInMilliseconds: 1800000
                    ignore:
                      urls: /,/**/*.css,/**/*.js,/**/*.html,/**/*.map,/**/*.svg,/**/*.png,/**/*.jpeg,/**/*.ico,/api/v1/auth/login,/metadata/v1/**
                """.formatted(config.seataConsolePort(instance), DevStackConfig.SEATA_CONSOLE_USER,
                DevStackConfig.SEATA_CONSOLE_PASSWORD, config.seataPort(instance),
                config.seataRetryDeadThreshold().toMillis(), store,
                secretKey());
    }

    /** A fresh signing key for console tokens; JJWT wants at least 256 bits for HS256 once decoded. */
    private static String secretKey() {
        return ("devstack" + UUID.randomUUID() + UUID.randomUUID()).replace("-", "");
    }

    @Override
    void awaitReady() {
        for (int i : instances()) {
            Processes.await("the Seata TC" + (config.seataInstances() > 1 ? " " + (i + 1) : "") + " (RPC port "
                    + config.seataPort(i) + ", console login on port " + config.seataConsolePort(i) + ")",
                    config.startTimeout(), () -> answers(i));
            if (config.seataRegistry().equals("nacos")) {
                registerInNacos(i);
            }
        }
    }

    /**
     * Registers TC {@code instance} in Nacos as {@value #NACOS_SERVICE} (group {@value #NACOS_GROUP}, cluster
     * {@code default}) at 127.0.0.1, on its behalf. The TC 2.0.0 can register itself ({@code seata.registry.type=nacos};
     * its nacos-client 1.4.2 works with this Nacos 3.1 server) but only under the host's first non-loopback address: it
     * drops a loopback {@code SEATA_IP} as invalid. Everything of the devstack stays on loopback, so the TC keeps the
     * file registry and the devstack registers it: a persistent instance, which Nacos marks unhealthy by its own TCP
     * check while the TC is down, which the next start registers again, and which a stop by this stack removes
     * ({@link #beforeStop}).
     */
    private void registerInNacos(int instance) {
        NacosServer nacos = new NacosServer(config);
        Processes.await("Nacos (port " + config.nacosPort() + ") to register the TC on port " + config.seataPort(instance)
                        + " as " + NACOS_SERVICE, config.startTimeout(),
                () -> nacos.registerPersistent(NACOS_SERVICE, NACOS_GROUP, "default", config.seataPort(instance))
                        && registeredInNacos(instance));
    }

    /**
     * With the nacos registry, takes every TC's registration out of Nacos before the TCs stop: a persistent
     * instance would otherwise stay listed, and Nacos's TCP check would find it healthy again as soon as anything
     * listens on its port, such as a TC of another stack shape on the file registry (another store), to which a
     * client looking TCs up in Nacos would then send part of its calls.
     */
    @Override
    void beforeStop() {
        if (!config.seataRegistry().equals("nacos")) {
            return;
        }
        NacosServer nacos = new NacosServer(config);
        for (int i : instances()) {
            if (!nacos.deregisterPersistent(NACOS_SERVICE, NACOS_GROUP, "default", config.seataPort(i))) {
                continue; // Nacos away or refusing: nothing to wait for
            }
            // Nacos accepts the removal at once and applies it a moment later: wait for that, briefly
            long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (Boolean.TRUE.equals(listedInNacos(i, false)) && System.nanoTime() < until) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private boolean answers(int instance) {
        return Processes.accepts(config.seataPort(instance)) && consoleToken(instance).isPresent();
    }

    /**
     * Every TC answers. With the nacos registry, a registration is also put back if Nacos lost it (a Nacos restarted
     * with fresh data); a Nacos that is away does not make a working TC unhealthy.
     */
    @Override
    boolean healthy() {
        boolean all = true;
        for (int i : instances()) {
            boolean answers = answers(i);
            if (answers && config.seataRegistry().equals("nacos") && !registeredInNacos(i)) {
                new NacosServer(config).registerPersistent(NACOS_SERVICE, NACOS_GROUP, "default", config.seataPort(i));
            }
            all &= answers;
        }
        return all;
    }

    /** Nacos lists TC {@code instance} (127.0.0.1 and its RPC port) as a healthy instance. */
    private boolean registeredInNacos(int instance) {
        return Boolean.TRUE.equals(listedInNacos(instance, true));
    }

    /**
     * Whether Nacos lists TC {@code instance} (127.0.0.1 and its RPC port), healthy or (not {@code healthyOnly}) at
     * all; null when Nacos did not answer.
     */
    private Boolean listedInNacos(int instance, boolean healthyOnly) {
        HttpRequest list = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + config.nacosPort()
                        + "/nacos/v1/ns/instance/list?serviceName=" + NACOS_SERVICE + "&groupName=" + NACOS_GROUP
                        + "&healthyOnly=" + healthyOnly + new NacosServer(config).accessToken()
                        .map(t -> "&accessToken=" + t).orElse("")))
                .timeout(Duration.ofSeconds(3)).GET().build();
        try {
            HttpResponse<String> response = HTTP.send(list, HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? response.body().replace(" ", "")
                    .contains("\"ip\":\"127.0.0.1\",\"port\":" + config.seataPort(instance) + ",") : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Logs in to TC {@code instance}'s console API; a token proves the console and its security chain are up. */
    Optional<String> consoleToken(int instance) {
        String body = "{\"username\":\"" + DevStackConfig.SEATA_CONSOLE_USER + "\",\"password\":\""
                + DevStackConfig.SEATA_CONSOLE_PASSWORD + "\"}";
        HttpRequest login = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + config.seataConsolePort(instance) + "/api/v1/auth/login"))
                .timeout(Duration.ofSeconds(3))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        try {
            HttpResponse<String> response = HTTP.send(login, HttpResponse.BodyHandlers.ofString());
            Matcher m = TOKEN.matcher(response.body());
            // A wrong password also answers 200, with "code":"401" in the body and no token.
            return response.statusCode() == 200 && response.body().contains("\"success\":true") && m.find()
                    ? Optional.of(m.group(1)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
