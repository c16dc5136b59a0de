package io.github.flashstock.devstack;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Every setting of the devstack. Each one is read from a system property ({@code devstack.redis.port}), then
 * from the matching environment variable ({@code DEVSTACK_REDIS_PORT}), then falls back to its default.
 * Defaults avoid the ports a developer's own servers usually hold.
 *
 * @param root           the project checkout (holds {@code sql/})
 * @param home           where every server keeps data, logs and PID files (git-ignored)
 * @param redisPort      standalone Redis
 * @param clusterPorts   the six Redis Cluster nodes (each also uses port + 10000 for its cluster bus)
 * @param sentinelPorts  the Sentinel layout: its primary, its replica, then its three Sentinels
 * @param redisServer    which server speaks the Redis protocol: {@code valkey} (Valkey 8, the default) or
 *                       {@code redis} (Redis 7.0); every Redis the devstack starts, and the tools it runs, are of it
 * @param mariadbPort    MariaDB
 * @param dbPassword     password of every database user the devstack creates
 * @param seataPort      Seata TC RPC port (clients connect here)
 * @param seataConsolePort Seata console (UI and API)
 * @param seataStore     {@code file} or {@code db} (the latter on the devstack's MariaDB, database {@code seata})
 * @param namesrvPort    RocketMQ name server
 * @param brokerPort     RocketMQ broker; it also listens on port - 2 (fast channel) and port + 1 (HA)
 * @param topics         topics created once the broker is up
 * @param nacosPort      Nacos main port (HTTP, context {@code /nacos}); Nacos also listens on port + 1000 and
 *                       port + 1001 (gRPC, what clients use) and port - 1000 (JRaft)
 * @param nacosAuth      whether the Nacos server checks identities (then its admin user is {@code nacosUsername})
 * @param nacosUsername  the Nacos admin user the devstack creates when auth is on
 * @param nacosPassword  its password
 * @param seataRegistry  where the Seata TC registers: {@code file} (clients use a fixed address) or {@code nacos}
 * @param seataInstances how many Seata TCs run: 1, or up to 9 sharing the {@code db} store and registered in Nacos
 *                       (instance {@code i}, from 0, on RPC port {@code seataPort + i} and console port
 *                       {@code seataConsolePort + i})
 * @param seataRetryDeadThreshold how old (from its begin) a session left in Committing or Rollbacking must be before
 *                       a TC retries it: such a session's phase two was begun by a TC that then died. Keep it above
 *                       the services' global timeout plus a TC-to-branch call (see {@link SeataServer})
 * @param startTimeout   how long a server may take to become ready
 * @param stopTimeout    how long a server may take to stop before it is killed
 */
public record DevStackConfig(
        Path root,
        Path home,
        int redisPort,
        List<Integer> clusterPorts,
        List<Integer> sentinelPorts,
        String redisServer,
        int mariadbPort,
        String dbPassword,
        int seataPort,
        int seataConsolePort,
        String seataStore,
        int namesrvPort,
        int brokerPort,
        List<String> topics,
        int nacosPort,
        boolean nacosAuth,
        String nacosUsername,
        String nacosPassword,
        String seataRegistry,
        int seataInstances,
        Duration seataRetryDeadThreshold,
        Duration startTimeout,
        Duration stopTimeout) {

    public DevStackConfig {
        if (nacosPort <= 1000 || nacosPort + 1001 > 65535) {
            throw new IllegalArgumentException("devstack.nacos.port must be between 1001 and 64534 (Nacos also listens"
                    + " on port - 1000 and port + 1001), was " + nacosPort);
        }
        if (seataInstances < 1 || seataInstances > 9) {
            throw new IllegalArgumentException("devstack.seata.instances must be between 1 and 9, was " + seataInstances);
        }
        if (seataInstances > 1 && (!seataStore.equals("db") || !seataRegistry.equals("nacos"))) {
            // with files each TC would keep sessions the others never see, and clients find several TCs only in Nacos
            throw new IllegalArgumentException("devstack.seata.instances=" + seataInstances + " needs"
                    + " devstack.seata.store=db and devstack.seata.registry=nacos (was " + seataStore + " and "
                    + seataRegistry + ")");
        }
    }

    /** The same stack with the Seata TC keeping its sessions in {@code file} or {@code db}. */
    public DevStackConfig withSeataStore(String mode) {
        return withSeata(mode, seataRegistry, seataInstances);
    }

    /**
     * The same stack with {@code instances} Seata TCs on the {@code db} store, registered in Nacos: the coordinator
     * as a cluster, the way the HA drills run it.
     */
    public DevStackConfig withSeataCluster(int instances) {
        return withSeata("db", "nacos", instances);
    }

    /**
     * The same stack with TCs that retry a session a dead TC left in Committing or Rollbacking once it is
     * {@code threshold} old: shorter than the default where the services' global timeout is too (the CI drills).
     */
    public DevStackConfig withSeataRetryDeadThreshold(Duration threshold) {
        return new DevStackConfig(root, home, redisPort, clusterPorts, sentinelPorts, redisServer, mariadbPort,
                dbPassword, seataPort, seataConsolePort, seataStore, namesrvPort, brokerPort, topics, nacosPort,
                nacosAuth, nacosUsername, nacosPassword, seataRegistry, seataInstances, threshold, startTimeout,
                stopTimeout);
    }

    private DevStackConfig withSeata(String store, String registry, int instances) {
        return new DevStackConfig(root, home, redisPort, clusterPorts, sentinelPorts, redisServer, mariadbPort,
                dbPassword, seataPort,
                seataConsolePort, storeMode(store), namesrvPort, brokerPort, topics, nacosPort, nacosAuth, nacosUsername,
                nacosPassword, registryType(registry), instances, seataRetryDeadThreshold, startTimeout, stopTimeout);
    }

    /** The RPC port of Seata TC {@code instance} (from 0). */
    public int seataPort(int instance) {
        return seataPort + instance;
    }

    /** The console port of Seata TC {@code instance} (from 0). */
    public int seataConsolePort(int instance) {
        return seataConsolePort + instance;
    }

    /** Databases the devstack creates, each with a user of the same name. */
    public static final List<String> DATABASES = List.of("inventory", "orders", "seata");

    public static final String SEATA_CONSOLE_USER = "seata";
    public static final String SEATA_CONSOLE_PASSWORD = "seata";

    /** Reads the settings from system properties and the environment. */
    public static DevStackConfig fromEnvironment() {
        return from(key -> Optional.ofNullable(System.getProperty(key))
                .or(() -> Optional.ofNullable(System.getenv(envName(key))))
                .filter(v -> !v.isBlank())
                .orElse(null));
    }

    /** Settings from the given lookup; unknown keys take their defaults. Used by tests for a second stack. */
    public static DevStackConfig from(Map<String, String> values) {
        return from(values::get);
    }

    static DevStackConfig from(Function<String, String> lookup) {
        Path root = Optional.ofNullable(lookup.apply("devstack.root")).map(Path::of)
                .orElseGet(DevStackConfig::findRoot).toAbsolutePath().normalize();
        Path home = Optional.ofNullable(lookup.apply("devstack.home")).map(Path::of)
                .orElse(root.resolve(".devstack")).toAbsolutePath().normalize();
        int clusterBase = intValue(lookup, "devstack.redis-cluster.base-port", 16380);
        int sentinelBase = intValue(lookup, "devstack.redis-sentinel.base-port", 16390);
        return new DevStackConfig(
                root,
                home,
                intValue(lookup, "devstack.redis.port", 16379),
                List.of(clusterBase, clusterBase + 1, clusterBase + 2, clusterBase + 3, clusterBase + 4, clusterBase + 5),
                List.of(sentinelBase, sentinelBase + 1, sentinelBase + 2, sentinelBase + 3, sentinelBase + 4),
                redisServerName(Optional.ofNullable(lookup.apply("devstack.redis.server")).orElse("valkey")),
                intValue(lookup, "devstack.mariadb.port", 13306),
                Optional.ofNullable(lookup.apply("devstack.mariadb.password")).orElse("devstack"),
                intValue(lookup, "devstack.seata.port", 18091),
                intValue(lookup, "devstack.seata.console-port", 17091),
                storeMode(Optional.ofNullable(lookup.apply("devstack.seata.store")).orElse("file")),
                intValue(lookup, "devstack.rocketmq.namesrv-port", 19876),
                intValue(lookup, "devstack.rocketmq.broker-port", 10911),
                List.of(Optional.ofNullable(lookup.apply("devstack.rocketmq.topics"))
                        .orElse("stock-events,stock-reconciliation,devstack-selftest").split("\\s*,\\s*")),
                intValue(lookup, "devstack.nacos.port", 18848),
                booleanValue(lookup, "devstack.nacos.auth"),
                Optional.ofNullable(lookup.apply("devstack.nacos.username")).orElse("nacos"),
                Optional.ofNullable(lookup.apply("devstack.nacos.password")).orElse("devstack-nacos"),
                registryType(Optional.ofNullable(lookup.apply("devstack.seata.registry")).orElse("file")),
                intValue(lookup, "devstack.seata.instances", 1, 9),
                Duration.ofSeconds(intValue(lookup, "devstack.seata.retry-dead-threshold-seconds", 60)),
                Duration.ofSeconds(intValue(lookup, "devstack.start-timeout-seconds", 120)),
                Duration.ofSeconds(intValue(lookup, "devstack.stop-timeout-seconds", 30)));
    }

    /**
     * A JVM's heap, GC and JIT options: {@code defaults}, unless system property {@code key} (or its environment
     * variable, {@code devstack.seata.jvm-options} -> {@code DEVSTACK_SEATA_JVM_OPTIONS}) gives others, separated by
     * spaces. The defaults of the devstack's and the services' JVMs favour a quick start on two cores (C1 only,
     * SerialGC); a benchmark can ask for the full JIT instead.
     */
    public static List<String> jvmOptions(String key, String defaults) {
        String configured = Optional.ofNullable(System.getProperty(key))
                .or(() -> Optional.ofNullable(System.getenv(envName(key))))
                .filter(v -> !v.isBlank()).orElse(defaults);
        return List.of(configured.trim().split("\\s+"));
    }

    /** {@code devstack.redis.port} becomes {@code DEVSTACK_REDIS_PORT}. */
    static String envName(String key) {
        return key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    private static int intValue(Function<String, String> lookup, String key, int fallback) {
        return intValue(lookup, key, fallback, 65535);
    }

    private static int intValue(Function<String, String> lookup, String key, int fallback, int max) {
        String raw = lookup.apply(key);
        if (raw == null) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(raw.trim());
            if (value < 1 || value > max) {
                throw new IllegalArgumentException(key + " must be between 1 and " + max + ", was " + raw);
            }
            return value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " (or " + envName(key) + ") is not a number: " + raw, e);
        }
    }

    private static boolean booleanValue(Function<String, String> lookup, String key) {
        String raw = lookup.apply(key);
        if (raw == null || raw.equalsIgnoreCase("false")) {
            return false;
        }
        if (raw.equalsIgnoreCase("true")) {
            return true;
        }
        throw new IllegalArgumentException(key + " (or " + envName(key) + ") must be true or false, was " + raw);
    }

    private static String redisServerName(String server) {
        if (!server.equals("valkey") && !server.equals("redis")) {
            throw new IllegalArgumentException("devstack.redis.server must be 'valkey' or 'redis', was " + server);
        }
        return server;
    }

    /**
     * The command of one of the Redis server's programs: {@code redisTool("server")} is {@code valkey-server} or
     * {@code redis-server}, likewise {@code cli} and {@code benchmark}.
     */
    public String redisTool(String tool) {
        return redisServer + "-" + tool;
    }

    /** The Sentinel layout's primary at start (a failover may have moved the role). */
    public int sentinelPrimaryPort() {
        return sentinelPorts.get(0);
    }

    /** The Sentinel layout's two data nodes: the primary at start, then its replica. */
    public List<Integer> sentinelDataPorts() {
        return sentinelPorts.subList(0, 2);
    }

    /** The Sentinel layout's three Sentinels. */
    public List<Integer> sentinels() {
        return sentinelPorts.subList(2, 5);
    }

    /** The name the Sentinels know the primary by. */
    public static final String SENTINEL_MASTER_NAME = "flashstock";

    private static String registryType(String type) {
        if (!type.equals("file") && !type.equals("nacos")) {
            throw new IllegalArgumentException("devstack.seata.registry must be 'file' or 'nacos', was " + type);
        }
        return type;
    }

    private static String storeMode(String mode) {
        if (!mode.equals("file") && !mode.equals("db")) {
            throw new IllegalArgumentException("devstack.seata.store must be 'file' or 'db', was " + mode);
        }
        return mode;
    }

    /** The nearest directory above the working directory that holds both {@code sql/} and {@code devstack/}. */
    private static Path findRoot() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path p = dir; p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("sql")) && Files.isDirectory(p.resolve("devstack"))) {
                return p;
            }
        }
        throw new IllegalStateException("cannot find the project root above " + dir
                + "; set devstack.root (or DEVSTACK_ROOT)");
    }

    /** These settings as {@code -D} options, for a JVM that must see the same stack (the watcher). */
    public List<String> asSystemProperties() {
        return List.of(
                "-Ddevstack.root=" + root,
                "-Ddevstack.home=" + home,
                "-Ddevstack.redis.port=" + redisPort,
                "-Ddevstack.redis-cluster.base-port=" + clusterPorts.get(0),
                "-Ddevstack.redis-sentinel.base-port=" + sentinelPorts.get(0),
                "-Ddevstack.redis.server=" + redisServer,
                "-Ddevstack.mariadb.port=" + mariadbPort,
                "-Ddevstack.mariadb.password=" + dbPassword,
                "-Ddevstack.seata.port=" + seataPort,
                "-Ddevstack.seata.console-port=" + seataConsolePort,
                "-Ddevstack.seata.store=" + seataStore,
                "-Ddevstack.rocketmq.namesrv-port=" + namesrvPort,
                "-Ddevstack.rocketmq.broker-port=" + brokerPort,
                "-Ddevstack.rocketmq.topics=" + String.join(",", topics),
                "-Ddevstack.nacos.port=" + nacosPort,
                "-Ddevstack.nacos.auth=" + nacosAuth,
                "-Ddevstack.nacos.username=" + nacosUsername,
                "-Ddevstack.nacos.password=" + nacosPassword,
                "-Ddevstack.seata.registry=" + seataRegistry,
                "-Ddevstack.seata.instances=" + seataInstances,
                "-Ddevstack.seata.retry-dead-threshold-seconds=" + seataRetryDeadThreshold.toSeconds(),
                "-Ddevstack.start-timeout-seconds=" + startTimeout.toSeconds(),
                "-Ddevstack.stop-timeout-seconds=" + stopTimeout.toSeconds());
    }

    public Path dataDir(String server) {
        return home.resolve(server);
    }

    public String jdbcUrl(String database) {
        return "jdbc:mysql://127.0.0.1:" + mariadbPort + "/" + database
                + "?useSSL=false&allowPublicKeyRetrieval=true&serverTimezone=UTC";
    }
}
