package io.github.flashstock.inventory.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import org.junit.jupiter.api.Test;

/** What each durability level asks of a server's settings, read from {@code CONFIG} and {@code INFO} replies. */
class RedisDurabilityTest {

    private static Properties props(String... pairs) {
        Properties p = new Properties();
        for (int i = 0; i < pairs.length; i += 2) {
            p.setProperty(pairs[i], pairs[i + 1]);
        }
        return p;
    }

    @Test
    void waitAofCameWithRedis72AndValkeyReportsIt() {
        assertThat(RedisDurability.hasWaitAof("7.0.15")).isFalse();
        assertThat(RedisDurability.hasWaitAof("6.2.14")).isFalse();
        assertThat(RedisDurability.hasWaitAof("7.2.4")).isTrue();
        assertThat(RedisDurability.hasWaitAof("7.4.1")).isTrue();
        assertThat(RedisDurability.hasWaitAof("8.0.1")).isTrue();
        assertThat(RedisDurability.hasWaitAof("")).isFalse();
        assertThat(RedisDurability.hasWaitAof("garbage")).isFalse();
    }

    @Test
    void fsyncOnItsOwnNeedsAppendfsyncAlways() {
        assertThat(RedisDurability.problems("n", props("appendonly", "yes", "appendfsync", "always"))).isEmpty();
        assertThat(RedisDurability.problems("n", props("appendonly", "yes", "appendfsync", "everysec")))
                .containsExactly("n has appendfsync everysec");
        assertThat(RedisDurability.problems("n", props("appendonly", "no", "appendfsync", "always")))
                .containsExactly("n has appendonly no");
        assertThat(RedisDurability.problems("n", props())).containsExactly("n has appendonly (unknown)");
    }

    @Test
    void waitingForThePrimarysDiskNeedsWaitAofAndAnAofThatTheServerFsyncs() {
        Properties valkey = props("redis_version", "7.2.4", "valkey_version", "8.0.1");
        assertThat(RedisDurability.waitAofProblems("n", props("appendonly", "yes", "appendfsync", "everysec"),
                valkey)).isEmpty();
        assertThat(RedisDurability.waitAofProblems("n", props("appendonly", "yes", "appendfsync", "always"),
                valkey)).isEmpty();
        assertThat(RedisDurability.waitAofProblems("n", props("appendonly", "yes", "appendfsync", "no"), valkey))
                .containsExactly("n has appendfsync no");
        assertThat(RedisDurability.waitAofProblems("n", props("appendonly", "no", "appendfsync", "everysec"),
                valkey)).containsExactly("n has appendonly no");
        assertThat(RedisDurability.waitAofProblems("n", props("appendonly", "yes", "appendfsync", "everysec"),
                props("redis_version", "7.0.15"))).containsExactly("n is Redis 7.0.15, without WAITAOF");
    }

    @Test
    void theLevelIsReadAsTheSettingSpellsIt() {
        assertThat(new RedisDurability(null, "fsync-and-replica").level())
                .isEqualTo(RedisDurability.Level.FSYNC_AND_REPLICA);
        assertThat(new RedisDurability(null, " Replica ").level()).isEqualTo(RedisDurability.Level.REPLICA);
        assertThat(RedisDurability.Level.FSYNC_AND_REPLICA.setting()).isEqualTo("fsync-and-replica");
        assertThatThrownBy(() -> new RedisDurability(null, "fsync_and_replica_and_more"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("fsync-and-replica");
    }
}
