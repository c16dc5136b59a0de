package io.github.flashstock.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DevStackConfigTest {

    private static Map<String, String> base() {
        Map<String, String> m = new HashMap<>();
        m.put("devstack.root", "/tmp/project");
        return m;
    }

    @Test
    void defaultsStayClearOfTheUsualPorts() {
        DevStackConfig c = DevStackConfig.from(base());

        assertThat(c.redisPort()).isEqualTo(16379);
        assertThat(c.clusterPorts()).containsExactly(16380, 16381, 16382, 16383, 16384, 16385);
        assertThat(c.sentinelDataPorts()).containsExactly(16390, 16391);
        assertThat(c.sentinels()).containsExactly(16392, 16393, 16394);
        assertThat(c.redisServer()).isEqualTo("valkey");
        assertThat(c.redisTool("server")).isEqualTo("valkey-server");
        assertThat(c.mariadbPort()).isEqualTo(13306);
        assertThat(c.seataPort()).isEqualTo(18091);
        assertThat(c.seataConsolePort()).isEqualTo(17091);
        assertThat(c.namesrvPort()).isEqualTo(19876);
        assertThat(c.brokerPort()).isEqualTo(10911);
        assertThat(c.seataStore()).isEqualTo("file");
        assertThat(c.seataRegistry()).isEqualTo("file");
        assertThat(c.nacosPort()).isEqualTo(18848);
        assertThat(c.nacosAuth()).isFalse();
        assertThat(c.home()).isEqualTo(Path.of("/tmp/project/.devstack"));
    }

    @Test
    void everyPortIsConfigurable() {
        Map<String, String> m = base();
        m.put("devstack.redis.port", "26379");
        m.put("devstack.redis-cluster.base-port", "26400");
        m.put("devstack.redis-sentinel.base-port", "26500");
        m.put("devstack.mariadb.port", "23306");
        m.put("devstack.seata.port", "28091");
        m.put("devstack.seata.console-port", "27091");
        m.put("devstack.rocketmq.namesrv-port", "29876");
        m.put("devstack.rocketmq.broker-port", "20911");

        DevStackConfig c = DevStackConfig.from(m);

        assertThat(c.redisPort()).isEqualTo(26379);
        assertThat(c.clusterPorts()).startsWith(26400).endsWith(26405);
        assertThat(c.sentinelPorts()).containsExactly(26500, 26501, 26502, 26503, 26504);
        assertThat(c.mariadbPort()).isEqualTo(23306);
        assertThat(c.seataPort()).isEqualTo(28091);
        assertThat(c.seataConsolePort()).isEqualTo(27091);
        assertThat(c.namesrvPort()).isEqualTo(29876);
        assertThat(c.brokerPort()).isEqualTo(20911);
    }

    @Test
    void theRedisServerIsValkeyOrRedis() {
        Map<String, String> m = base();
        m.put("devstack.redis.server", "redis");
        DevStackConfig redis = DevStackConfig.from(m);
        assertThat(redis.redisTool("cli")).isEqualTo("redis-cli");
        assertThat(redis.redisTool("benchmark")).isEqualTo("redis-benchmark");
        assertThat(DevStackConfig.from(redis.asSystemProperties().stream()
                .map(o -> o.substring(2).split("=", 2)).collect(java.util.stream.Collectors.toMap(a -> a[0],
                        a -> a[1]))).redisServer()).isEqualTo("redis");

        m.put("devstack.redis.server", "keydb");
        assertThatThrownBy(() -> DevStackConfig.from(m)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'valkey' or 'redis'");
    }

    @Test
    void systemPropertiesRoundTripForTheWatcher() {
        Map<String, String> m = base();
        m.put("devstack.redis.port", "26379");
        m.put("devstack.seata.store", "db");
        DevStackConfig c = DevStackConfig.from(m);

        Map<String, String> parsed = new HashMap<>();
        for (String option : c.asSystemProperties()) {
            String kv = option.substring(2);
            parsed.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
        }

        assertThat(DevStackConfig.from(parsed)).isEqualTo(c);
    }

    @Test
    void environmentVariableNamesFollowThePropertyNames() {
        assertThat(DevStackConfig.envName("devstack.redis.port")).isEqualTo("DEVSTACK_REDIS_PORT");
        assertThat(DevStackConfig.envName("devstack.redis-cluster.base-port")).isEqualTo("DEVSTACK_REDIS_CLUSTER_BASE_PORT");
    }

    @Test
    void rejectsAPortThatIsNotANumberAndNamesTheSetting() {
        Map<String, String> m = base();
        m.put("devstack.mariadb.port", "13306x");

        assertThatThrownBy(() -> DevStackConfig.from(m))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("devstack.mariadb.port")
                .hasMessageContaining("DEVSTACK_MARIADB_PORT");
    }

    @Test
    void rejectsAPortOutOfRange() {
        Map<String, String> m = base();
        m.put("devstack.redis.port", "70000");

        assertThatThrownBy(() -> DevStackConfig.from(m)).hasMessageContaining("between 1 and 65535");
    }

    @Test
    void rejectsAnUnknownSeataStore() {
        Map<String, String> m = base();
        m.put("devstack.seata.store", "redis");

        assertThatThrownBy(() -> DevStackConfig.from(m)).hasMessageContaining("'file' or 'db'");
    }

    @Test
    void nacosPortAuthAndTheTcRegistryAreConfigurable() {
        Map<String, String> m = base();
        m.put("devstack.nacos.port", "28848");
        m.put("devstack.nacos.auth", "true");
        m.put("devstack.nacos.password", "s3cret");
        m.put("devstack.seata.registry", "nacos");

        DevStackConfig c = DevStackConfig.from(m);

        assertThat(c.nacosPort()).isEqualTo(28848);
        assertThat(c.nacosAuth()).isTrue();
        assertThat(c.nacosUsername()).isEqualTo("nacos");
        assertThat(c.nacosPassword()).isEqualTo("s3cret");
        assertThat(c.seataRegistry()).isEqualTo("nacos");
        assertThat(new NacosServer(c).ports()).containsExactly(28848, 29848, 29849, 27848);
    }

    @Test
    void refusesANacosPortWhoseDerivedPortsDoNotExist() {
        Map<String, String> m = base();
        m.put("devstack.nacos.port", "900");

        assertThatThrownBy(() -> DevStackConfig.from(m)).hasMessageContaining("port - 1000");
    }

    @Test
    void refusesAnUnknownTcRegistry() {
        Map<String, String> m = base();
        m.put("devstack.seata.registry", "zookeeper");

        assertThatThrownBy(() -> DevStackConfig.from(m)).hasMessageContaining("'file' or 'nacos'");
    }
    @Test
    void severalTcsShareTheDbStoreAndNacosEachOnItsOwnPorts() {
        Map<String, String> m = base();
        m.put("devstack.seata.port", "28091");
        m.put("devstack.seata.console-port", "27091");
        DevStackConfig c = DevStackConfig.from(m).withSeataCluster(2);

        assertThat(c.seataInstances()).isEqualTo(2);
        assertThat(c.seataStore()).isEqualTo("db");
        assertThat(c.seataRegistry()).isEqualTo("nacos");
        assertThat(c.seataPort(1)).isEqualTo(28092);
        assertThat(c.seataConsolePort(1)).isEqualTo(27092);
        assertThat(new SeataServer(c).ports()).containsExactly(28091, 27091, 28092, 27092);
        assertThat(DevStackConfig.from(m).seataInstances()).as("default: one TC").isEqualTo(1);
    }

    @Test
    void refusesSeveralTcsThatCouldNotShareTheirSessions() {
        Map<String, String> m = base();
        m.put("devstack.seata.instances", "2");
        assertThatThrownBy(() -> DevStackConfig.from(m)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("devstack.seata.store=db and devstack.seata.registry=nacos");

        m.put("devstack.seata.store", "db");
        m.put("devstack.seata.registry", "nacos");
        assertThat(DevStackConfig.from(m).seataInstances()).isEqualTo(2);
        m.put("devstack.seata.instances", "0");
        assertThatThrownBy(() -> DevStackConfig.from(m)).hasMessageContaining("between 1 and 9");
    }

    @Test
    void theTcRetriesADeadTcsSessionsOnceTheyAreAsOldAsConfigured() {
        Map<String, String> m = base();
        DevStackConfig shipped = DevStackConfig.from(m);
        assertThat(shipped.seataRetryDeadThreshold()).isEqualTo(java.time.Duration.ofSeconds(60));
        assertThat(new SeataServer(shipped).applicationYml(0)).contains("retry-dead-threshold: 60000");

        m.put("devstack.seata.retry-dead-threshold-seconds", "30");
        DevStackConfig shorter = DevStackConfig.from(m);
        assertThat(new SeataServer(shorter).applicationYml(0)).contains("retry-dead-threshold: 30000");
        assertThat(shipped.withSeataRetryDeadThreshold(java.time.Duration.ofSeconds(30))).isEqualTo(shorter);
        assertThat(DevStackConfig.from(shorter.asSystemProperties().stream()
                .map(o -> o.substring(2).split("=", 2)).collect(java.util.stream.Collectors.toMap(a -> a[0],
                        a -> a[1])))).isEqualTo(shorter);

        m.put("devstack.seata.retry-dead-threshold-seconds", "0");
        assertThatThrownBy(() -> DevStackConfig.from(m)).hasMessageContaining("retry-dead-threshold-seconds");
    }
}
