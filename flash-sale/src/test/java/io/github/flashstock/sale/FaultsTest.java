package io.github.flashstock.sale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flashstock.devstack.Component;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Which fault each drill strikes with, and how every fault is struck, waited out and healed. */
class FaultsTest {

    @Test
    void eachDrillNameOfTheCommandLineHasItsFault() {
        assertThat(Faults.named("order-kill")).isInstanceOf(OrderDemoKill.class);
        assertThat(Faults.named("inventory-kill-one")).isInstanceOf(InventoryKill.class);
        assertThat(Faults.named("inventory-kill-only")).isInstanceOf(InventoryKill.class);
        assertThat(Faults.named("broker-kill")).isInstanceOf(BrokerKill.class);
        assertThat(Faults.named("redis-split")).isInstanceOf(RedisSplit.class);
        assertThat(Faults.named("redis-full")).isInstanceOf(RedisFull.class);
        assertThat(Faults.named("redis-aof-tail")).isInstanceOf(RedisAofTail.class);
        assertThat(Faults.named("redis-master-kill")).isInstanceOf(RedisMasterKill.class);
        assertThat(Faults.named("redis-sentinel-failover")).isInstanceOf(RedisSentinelFailover.class);
        assertThat(Faults.named("tc-kill")).isInstanceOfSatisfying(ServerKill.class,
                f -> assertThat(f.server()).isEqualTo(Component.SEATA));
        assertThat(Faults.named("tc-kill-db")).isInstanceOfSatisfying(ServerKill.class,
                f -> assertThat(f.server()).isEqualTo(Component.SEATA));
        assertThat(Faults.named("redis-kill")).isInstanceOfSatisfying(ServerKill.class,
                f -> assertThat(f.server()).isEqualTo(Component.REDIS));
        assertThat(Faults.named("mariadb-kill")).isInstanceOfSatisfying(ServerKill.class,
                f -> assertThat(f.server()).isEqualTo(Component.MARIADB));
        assertThat(Faults.named("redis-freeze")).isInstanceOfSatisfying(ServerPause.class,
                f -> assertThat(f.server()).isEqualTo(Component.REDIS));
        assertThat(Faults.named(" MariaDB-Pause ")).isInstanceOfSatisfying(ServerPause.class,
                f -> assertThat(f.server()).isEqualTo(Component.MARIADB));
    }

    @Test
    void redisFullReadsTheFieldsOfInfo() {
        String info = "# Errorstats\r\nerrorstat_ERR:count=3\r\nerrorstat_OOM:count=12\r\n";
        assertThat(RedisFull.field(info, "errorstat_OOM")).isEqualTo("count=12");
        assertThat(RedisFull.field(info, "errorstat_MISCONF")).isEmpty();
        assertThat(RedisFull.field("aof_enabled:1\r\naof_last_write_status:err\r\n", "aof_last_write_status"))
                .isEqualTo("err");
    }

    @Test
    void everyDrillHasAFreshFaultLastingItsOutageButTheFailovers() {
        for (Drill drill : Drill.drills()) {
            Fault fault = Faults.of(drill);
            Fault.Scene scene = new Fault.Scene(null, null, null, null, "run", "hot", drill.outage());
            assertThat(fault).as(drill.cliName()).isNotSameAs(Faults.of(drill));
            // redis-full strikes twice: memory for the first half of the outage, the disk (in heal) for the second
            assertThat(fault.outage(scene)).as(drill.cliName())
                    .isEqualTo(drill.onCluster() || drill.onSentinel() ? Duration.ZERO
                            : drill == Drill.REDIS_FULL ? drill.outage().dividedBy(2) : drill.outage());
        }
        assertThat(Drill.parse("redis-freeze").outage()).isEqualTo(Duration.ofSeconds(5));
        assertThat(Drill.parse("mariadb-pause").outage()).isEqualTo(Duration.ofSeconds(10));
        assertThat(Drill.parse("redis-split").outage()).isEqualTo(Duration.ofSeconds(8));
        assertThat(Drill.parse("redis-full").outage()).isEqualTo(Duration.ofSeconds(6));
        // chaos is bin/chaos's, with a schedule of its own: neither bin/drill's nor a fault of one kind
        assertThat(Drill.drills()).doesNotContain(Drill.CHAOS);
        assertThatThrownBy(() -> Faults.of(Drill.CHAOS)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Drill.parse("chaos")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anUnknownNameIsRefusedWithTheNamesThereAre() {
        assertThatThrownBy(() -> Faults.named("disk-full"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no drill named 'disk-full'")
                .hasMessageContaining("order-kill")
                .hasMessageContaining("tc-kill-db");
    }

    @Test
    void aFaultIsInjectedWaitedOutAndHealedAndTheLineSaysWhenTheSystemWasWholeAgain() {
        List<String> calls = new ArrayList<>();
        Fault fault = new Fault() {
            @Override
            public Hit inject(Scene scene) {
                calls.add("inject");
                return new Hit(Instant.now().minusMillis(1500), "a server (PID [42]) killed");
            }

            @Override
            public Duration outage(Scene scene) {
                return Duration.ofMillis(50);
            }

            @Override
            public String heal(Scene scene) {
                calls.add("heal");
                return ", back as a replica";
            }
        };
        AtomicReference<Duration> back = new AtomicReference<>(Duration.ZERO);

        String line = Faults.strike(fault, null, back);

        assertThat(calls).containsExactly("inject", "heal");
        assertThat(back.get()).isGreaterThanOrEqualTo(Duration.ofMillis(1550));
        assertThat(line).matches("a server \\(PID \\[42\\]\\) killed, back as a replica; healthy again"
                + " \\d+\\.\\d+ s after the fault")
                .contains("healthy again " + back.get().toMillis() / 1000.0 + " s");
    }

    @Test
    void aFaultThatCannotHealLeavesNoTimeBack() {
        Fault fault = new Fault() {
            @Override
            public Hit inject(Scene scene) {
                return new Hit(Instant.now(), "hit");
            }

            @Override
            public Duration outage(Scene scene) {
                return Duration.ZERO;
            }

            @Override
            public String heal(Scene scene) {
                throw new IllegalStateException("the replica did not take over");
            }
        };
        AtomicReference<Duration> back = new AtomicReference<>(Duration.ZERO);

        assertThatThrownBy(() -> Faults.strike(fault, null, back)).hasMessage("the replica did not take over");
        assertThat(back.get()).isZero();
    }
}
