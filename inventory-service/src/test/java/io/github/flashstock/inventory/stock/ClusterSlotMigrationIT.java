package io.github.flashstock.inventory.stock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.DevStack;
import io.github.flashstock.devstack.junit.DevStackTest;
import io.github.flashstock.devstack.junit.SharedStack;
import io.github.flashstock.inventory.redis.RedisFailures;
import io.github.flashstock.inventory.reservation.PhaseOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A slot being migrated between two masters of the devstack's Redis Cluster, as {@code valkey-cli --cluster reshard}
 * moves it: key by key, the slot MIGRATING on its master and IMPORTING on the other. A script that meets a key
 * already moved must fail before it has written anything (issue #59). A script that wrote first and touched the
 * stream last would sell the units, write the record CONFIRMED, then fail at the XADD: the coordinator's retry would
 * find ALREADY_APPLIED and the CONFIRMED event would never be written.
 */
@DevStackTest(Component.REDIS_CLUSTER)
class ClusterSlotMigrationIT {

    private static final Duration RETENTION = Duration.ofHours(1);

    private final DevStack stack = DevStack.fromEnvironment();
    private String sku;
    private String stock;
    private String slot;
    private int source;
    private int target;
    private String sourceId;
    private String targetId;
    private RedisScripts scripts;

    @BeforeEach
    void aSkuOnOneMasterAndAnotherMaster() {
        sku = "migrating-" + UUID.randomUUID();
        stock = "inv:{" + sku + "}";
        source = SharedStack.redisClusterMasterAndReplicaOf(stock)[0];
        slot = String.valueOf(one(source, "CLUSTER", "KEYSLOT", stock));
        sourceId = String.valueOf(one(source, "CLUSTER", "MYID"));
        for (String line : String.valueOf(one(source, "CLUSTER", "NODES")).split("\n")) {
            String[] f = line.split(" ");
            if (f.length > 2 && f[2].contains("master") && !f[2].contains("fail") && !f[0].equals(sourceId)) {
                targetId = f[0];
                target = Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1, f[1].indexOf('@')));
                break;
            }
        }
        assertThat(targetId).as("another master in the cluster").isNotNull();
        // the scripts talk to the slot's master directly, as the service's cluster client does for this slot
        scripts = new RedisScripts("127.0.0.1", source);
        scripts.init.run(sku, 10, 0, 0, 2);
    }

    @AfterEach
    void slotStableAgain() {
        // whatever the test moved to the target goes (the SKU is the test's own), then both nodes forget the move
        if (targetId != null) {
            for (String key : List.of(stock + ":events", stock + ":seg:1")) {
                stack.onRedisNode(target, List.of(new String[] {"ASKING"}, new String[] {"DEL", key}));
            }
            one(target, "CLUSTER", "SETSLOT", slot, "STABLE");
            one(source, "CLUSTER", "SETSLOT", slot, "STABLE");
        }
        if (scripts != null) {
            scripts.close();
        }
    }

    private Object one(int port, String... command) {
        return stack.onRedisNode(port, List.<String[]>of(command)).get(0);
    }

    /** The slot MIGRATING from its master to the other one, and {@code keys} moved there already. */
    private void migrating(String... keys) {
        assertThat(one(target, "CLUSTER", "SETSLOT", slot, "IMPORTING", sourceId)).isEqualTo("OK");
        assertThat(one(source, "CLUSTER", "SETSLOT", slot, "MIGRATING", targetId)).isEqualTo("OK");
        for (String key : keys) {
            assertThat(one(source, "MIGRATE", "127.0.0.1", Integer.toString(target), key, "0", "5000"))
                    .as("MIGRATE %s", key).isEqualTo("OK");
        }
    }

    private static String chain(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t).append(" <- ");
        }
        return all.toString();
    }

    private Map<Object, Object> record(String xid) {
        return scripts.redis.opsForHash().entries(stock + ":tx:" + xid + ":order-1");
    }

    @Test
    void aConfirmThatMeetsTheMovedStreamWritesNothingAndAppliesOnceTheSlotIsStable() {
        String xid = RedisScripts.xid();
        scripts.tryScript.run(xid, "order-1", 1, "alice", RedisScripts.lines(sku, 2));
        RedisStock before = scripts.reader.read(sku).orElseThrow();
        migrating(stock + ":events");

        assertThatThrownBy(() -> scripts.confirm.run(sku, xid, "order-1", RETENTION, 2, "alice"))
                .satisfies(e -> assertThat(RedisFailures.slotElsewhere(e)).as("%s", chain(e)).isTrue())
                .satisfies(e -> assertThat(RedisFailures.notSent(e)).isTrue());

        RedisStock after = scripts.reader.read(sku).orElseThrow();
        assertThat(after.reserved()).as("reserved, untouched").isEqualTo(before.reserved()).isEqualTo(2);
        assertThat(after.sold()).as("sold, untouched").isZero();
        assertThat(record(xid)).containsEntry("state", "TRIED");

        slotStableAgain();
        scripts = new RedisScripts("127.0.0.1", source);
        PhaseOutcome confirmed = scripts.confirm.run(sku, xid, "order-1", RETENTION, 2, "alice");

        assertThat(confirmed.code()).isEqualTo(PhaseOutcome.Code.APPLIED);
        assertThat(scripts.reader.read(sku).orElseThrow().sold()).isEqualTo(2);
        assertThat(scripts.redis.opsForStream().range(stock + ":events",
                org.springframework.data.domain.Range.unbounded())).as("the CONFIRMED event, written this time")
                .anySatisfy(entry -> assertThat(entry.getValue()).containsEntry("phase", "CONFIRMED"));
    }

    @Test
    void everyPhaseScriptThatMeetsAMovedKeyFailsHavingWrittenNothing() {
        String tried = RedisScripts.xid();
        scripts.tryScript.run(tried, "order-1", 1, "alice", RedisScripts.lines(sku, 2));
        String newXid = RedisScripts.xid();
        RedisStock before = scripts.reader.read(sku).orElseThrow();
        migrating(stock + ":events");

        List<String> failures = new ArrayList<>();
        List<Runnable> calls = List.of(
                () -> scripts.tryScript.run(newXid, "order-1", 1, "bob", RedisScripts.lines(sku, 1)),
                () -> scripts.cancel.run(sku, tried, "order-1", RETENTION),
                () -> scripts.confirm.run(sku, tried, "order-1", RETENTION, 2, "alice"));
        for (Runnable call : calls) {
            assertThatThrownBy(call::run).satisfies(e -> {
                if (!RedisFailures.slotElsewhere(e)) {
                    failures.add(chain(e));
                }
            });
        }

        assertThat(failures).as("failures other than a key out of reach").isEmpty();
        RedisStock after = scripts.reader.read(sku).orElseThrow();
        assertThat(after.available()).isEqualTo(before.available());
        assertThat(after.reserved()).isEqualTo(before.reserved());
        assertThat(after.sold()).isEqualTo(before.sold());
        assertThat(record(tried)).containsEntry("state", "TRIED");
        assertThat(scripts.redis.opsForValue().get(stock + ":buyer:alice")).isEqualTo("2");
        // keys that do not exist are asked for on the importing node while the slot moves: read them once it is stable
        slotStableAgain();
        scripts = new RedisScripts("127.0.0.1", source);
        assertThat(record(newXid)).as("no record for the Try that failed").isEmpty();
        assertThat(scripts.redis.opsForValue().get(stock + ":buyer:bob")).isNull();
    }

    /**
     * The scripts that move stock outside a reservation's phases (restock, resegment, handover, reload, the mirror),
     * against a slot whose second segment has moved: each fails with the key out of reach, and the stock hash and the
     * first segment are as they were. Before they touched their keys first, restock and resegment wrote the first
     * segment and then failed at the second.
     */
    @Test
    void everyStockScriptThatMeetsAMovedSegmentFailsHavingWrittenNothing() {
        Map<Object, Object> stockBefore = scripts.redis.opsForHash().entries(stock);
        Map<Object, Object> firstBefore = scripts.redis.opsForHash().entries(stock + ":seg:0");
        migrating(stock + ":seg:1");
        io.github.flashstock.inventory.allotment.HandoverScript handover =
                new io.github.flashstock.inventory.allotment.HandoverScript(scripts.redis);

        List<String> failures = new ArrayList<>();
        List<Runnable> calls = List.of(
                () -> scripts.restock.run(sku, 4, "op-restock", RETENTION),
                () -> scripts.resegment.run(sku, 3),
                () -> handover.run(sku, io.github.flashstock.inventory.allotment.HandoverScript.Direction.OUT, 3,
                        "op-out", RETENTION),
                () -> handover.run(sku, io.github.flashstock.inventory.allotment.HandoverScript.Direction.IN, 3,
                        "op-in", RETENTION),
                () -> scripts.reload.runLocked(sku, 10, 0, 0, 0, HandoverMarks.NONE, false),
                () -> scripts.mirror.run(sku, RedisScripts.xid(), "order-m", 1, "carol", "TRIED", RETENTION));
        for (Runnable call : calls) {
            assertThatThrownBy(call::run).satisfies(e -> {
                if (!RedisFailures.slotElsewhere(e)) {
                    failures.add(chain(e));
                }
            });
        }

        assertThat(failures).as("failures other than a key out of reach").isEmpty();
        assertThat(scripts.redis.opsForHash().entries(stock)).as("the stock hash").isEqualTo(stockBefore);
        assertThat(scripts.redis.opsForHash().entries(stock + ":seg:0")).as("the first segment").isEqualTo(firstBefore);
    }
}
