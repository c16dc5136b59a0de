package io.github.flashstock.sale;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.DevStack;
import io.github.flashstock.devstack.junit.SharedStack;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every drill of {@code bin/drill} but five covered elsewhere (below), with a smaller sale (200 buyers, 24 at a time;
 * {@code bin/drill} runs 1,500):
 * a process killed or paused part-way, brought back, and then nothing oversold, lost or left reserved, no order
 * pending, no global session left at the TC, nothing for the reconciler, no answer the final state contradicts,
 * and where a second instance took over, not one failed order (where a second TC did, at most 1 % of the sale).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
// the drills first, the chaos seed last: it leaves the HA layout (Redis Cluster, two TCs) for DrillRunner.close
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DrillsIT {

    private static final int BUYERS = 200;
    private static final int CLIENTS = 24;
    /** {@code -Ddrills=tc-kill-one,order-kill}: only those drills (to re-run one while working on it); unset: all. */
    private static final Set<String> ONLY = Arrays.stream(System.getProperty("drills", "").split(","))
            .map(String::strip).filter(s -> !s.isEmpty()).collect(Collectors.toSet());

    private Services services;
    private DrillRunner runner;

    @BeforeAll
    void startTwoOfEach() throws IOException {
        SharedStack.ensure(Component.defaults());
        // the other classes' services stay on the standalone Redis: not under the coordinators the chaos seed and the
        // drills on the Redis Cluster use, where Seata could hand them a phase of a branch these services registered
        EndToEnd.stop();
        Path root = Path.of(System.getProperty("devstack.root", "..")).toAbsolutePath().normalize();
        Path config = Files.createTempDirectory("flashstock-drills");
        Files.copy(root.resolve("nacos-config/order-demo.yaml"), config.resolve("order-demo.yaml"));
        Files.copy(root.resolve("nacos-config/inventory-service.yaml"), config.resolve("inventory-service.yaml"));
        String source = "--flashstock.config.source=file:" + config + "/";
        Services.Settings settings = Services.Settings.of(root, freePort(), freePort(), "drill-" + UUID.randomUUID(),
                        root.resolve(".devstack/logs/drills-it"))
                .withInventoryPorts(List.of(freePort(), freePort()))
                .withOrderPorts(List.of(freePort(), freePort()))
                // the forwarders sweep every SKU's event stream and take over a dead instance's entries within 5 s
                // (shipped: 30 s each), so that broker-kill settles sooner; bin/drill runs the shipped values
                // and a handover cut short by a fault is driven on by a survivor after 3 s (shipped: 10 s), so that
                // redis-aof-tail's units on their way to an allotment arrive sooner
                .withInventoryArgs(source, "--inventory.events.sweep-interval=5s", "--inventory.events.claim-after=5s",
                        "--inventory.handover.complete-after=3s")
                // the coordinator rolls back an order's transaction 10 s after its begin (shipped: 30 s), so that the
                // orders order-kill and the TC drills leave open end sooner; still far above an order's run here
                .withOrderArgs(source, "--spring.profiles.active=faults",
                        "--seata.client.tm.default-global-transaction-timeout=10000")
                .withJarsFromSystemProperties();
        services = Services.start(SharedStack.endpoints(), settings, Duration.ofMinutes(4));
        // the TCs the drills restart retry a session a dead TC left in Committing or Rollbacking once it is 30 s old
        // (the devstack's default: 60 s), still above the services' 10 s global timeout plus a 15 s branch call; the
        // runner leaves the shared TC on its own settings, for the classes after this one
        DevStack shared = DevStack.fromEnvironment();
        runner = new DrillRunner(new DevStack(shared.config().withSeataRetryDeadThreshold(Duration.ofSeconds(30))),
                shared, services, System.out);
    }

    @AfterAll
    void stop() {
        if (runner != null) {
            runner.close();
        }
        if (services != null) {
            services.close();
        }
    }

    @Order(1)
    @ParameterizedTest(name = "{0}")
    // Left to bin/drill, each covered in CI elsewhere (a drill costs about 45 s of CI): redis-master-kill restarts the
    // inventory instances on the Redis Cluster and back (a minute and a half more), and inventory-service's
    // ClusterReservationIT runs the same crash; likewise redis-sentinel-failover and SentinelReservationIT; the planned
    // failovers redis-sentinel-planned and redis-cluster-planned (issue #59) are bin/drill's until every promotion no
    // longer pauses the sale; redis-kill is redis-aof-tail without the cut of the AOF, and
    // RedisOutageIT kills Redis in the middle of a sale too; redis-freeze is RedisOutageIT's SIGSTOP, which checks
    // more (every order's ledger rows, the limits, the allotments afterwards); inventory-kill-only is
    // inventory-kill-mid-confirm's fault (the only instance, kill -9, back after 3 s) struck at any moment rather than
    // while Confirms wait for a coalesced call, and InventoryRestartIT kills that instance between Try and Confirm
    @EnumSource(value = Drill.class, mode = EnumSource.Mode.EXCLUDE,
            names = {"REDIS_MASTER_KILL", "REDIS_SENTINEL_FAILOVER", "REDIS_SENTINEL_PLANNED", "REDIS_CLUSTER_PLANNED",
                    "REDIS_KILL", "REDIS_FREEZE", "INVENTORY_KILL_ONLY",
                    "CHAOS"})
    void aFaultMidSaleLeavesEveryUnitAndEveryAnswerRight(Drill drill) {
        Assumptions.assumeTrue(ONLY.isEmpty() || ONLY.contains(drill.cliName()),
                () -> drill.cliName() + " left out by -Ddrills=" + ONLY);
        DrillReport report = runner.run(drill, BUYERS, CLIENTS);

        SoftAssertions soft = new SoftAssertions();
        String d = drill.cliName() + ": ";
        soft.assertThat(report.struck()).as(d + "the fault struck (else see the sale's events)").isTrue();
        soft.assertThat(report.settled()).as(d + "settled: nothing pending, reserved or held by the TC").isTrue();
        soft.assertThat(report.oversold()).as(d + "units oversold").isZero();
        soft.assertThat(report.lost()).as(d + "units lost").isZero();
        soft.assertThat(report.reserved()).as(d + "units still reserved").isZero();
        soft.assertThat(report.storesAgree()).as(d + "Redis, MySQL and the CONFIRMED orders count the same sold units: "
                        + report.skus())
                .isTrue();
        soft.assertThat(report.overLimitInAStore()).as(d + "buyers above the per-user limit in one store: "
                + report.skus()).isZero();
        soft.assertThat(report.pendingOrders()).as(d + "orders still PENDING").isZero();
        soft.assertThat(report.tcSessionsLeft()).as(d + "global sessions left at the TC").isZero();
        // a drill that takes Redis out of reach may leave a buyer above the limit within the bound design.md gives
        // ("One buyer count"), and only if the reconciler reports it; every other finding is a fault
        soft.assertThat(report.faultFindings()).as(d + "findings (the reconciler's, STRAY_PARTICIPANT)").isEmpty();
        soft.assertThat(report.limitsKept()).as(d + "no buyer above the limit in their orders, or each SKU with one"
                + " reported (LIMIT_EXCESS) in a drill that cuts Redis: " + report.findings() + " " + report.skus())
                .isTrue();
        soft.assertThat(report.unmatched()).as(d + "CONFIRMED orders and CONFIRMED reservations that disagree")
                .isEmpty();
        soft.assertThat(report.contradictions()).as(d + "answers the final state contradicts: "
                + report.contradictionExamples()).isZero();
        soft.assertThat(report.improperAnswers()).as(d + "answers of a form no buyer should get: "
                + report.improperExamples()).isZero();
        if (drill.failedShareAllowed() < 1) {
            soft.assertThat(report.failedOrders()).as(d + "failed orders while a second instance was there: "
                    + report.answers()).isLessThanOrEqualTo(drill.failedOrdersAllowed(report.orders()));
        }
        if (drill == Drill.REDIS_FULL) {
            soft.assertThat(report.answers()).as(d + "buyers told Redis is full, in so many words")
                    .containsKey("503 inventory-unavailable (redis-full)");
        }
        // and the sale really sold (a drill whose every order failed would prove nothing)
        soft.assertThat(report.skus()).filteredOn(s -> !s.skuId().startsWith("d-held-"))
                .allSatisfy(s -> assertThat(s.unitsInConfirmedOrders()).as(s.skuId()).isPositive());
        soft.assertAll();
    }

    /**
     * One short chaos seed ({@code bin/chaos} runs long ones): two minutes of sale on the HA layout while its schedule
     * kills, pauses and cuts, several faults at once; then every check the drills make but the failure bound.
     * {@code -Dchaos.seed=N} runs another seed (the schedule is printed first; the same seed replays it).
     * Runs with the drills ({@code -Ddrills=...} without {@code chaos} leaves it out).
     */
    @Order(2)
    @Test
    void aShortChaosSeedLeavesEveryUnitAndEveryAnswerRight() {
        Assumptions.assumeTrue(ONLY.isEmpty() || ONLY.contains("chaos") || System.getProperty("chaos.seed") != null,
                () -> "chaos left out by -Ddrills=" + ONLY);
        long seed = Long.getLong("chaos.seed", 20261205L);
        DrillReport report = runner.runChaos(ChaosSchedule.draw(seed, Duration.ofMinutes(2)), 10, 24);
        ChaosCli.print(runner.lastChaos(), System.out);

        SoftAssertions soft = new SoftAssertions();
        String d = "chaos seed " + seed + ": ";
        soft.assertThat(report.settled()).as(d + "settled: nothing pending, reserved or held by the TC").isTrue();
        soft.assertThat(report.oversold()).as(d + "units oversold").isZero();
        soft.assertThat(report.lost()).as(d + "units lost").isZero();
        soft.assertThat(report.reserved()).as(d + "units still reserved").isZero();
        soft.assertThat(report.storesAgree()).as(d + "Redis, MySQL and the CONFIRMED orders count the same sold units: "
                + report.skus()).isTrue();
        soft.assertThat(report.overLimitInAStore()).as(d + "buyers above the per-user limit in one store").isZero();
        soft.assertThat(report.pendingOrders()).as(d + "orders still PENDING").isZero();
        soft.assertThat(report.tcSessionsLeft()).as(d + "global sessions left at the TCs").isZero();
        // a drill that takes Redis out of reach may leave a buyer above the limit within the bound design.md gives
        // ("One buyer count"), and only if the reconciler reports it; every other finding is a fault
        soft.assertThat(report.faultFindings()).as(d + "findings (the reconciler's, STRAY_PARTICIPANT)").isEmpty();
        soft.assertThat(report.limitsKept()).as(d + "no buyer above the limit in their orders, or each SKU with one"
                + " reported (LIMIT_EXCESS) in a drill that cuts Redis: " + report.findings() + " " + report.skus())
                .isTrue();
        soft.assertThat(report.unmatched()).as(d + "CONFIRMED orders and reservations that disagree").isEmpty();
        soft.assertThat(report.missingEvents()).as(d + "stock events missing from the topic").isEmpty();
        soft.assertThat(report.contradictions()).as(d + "answers the final state contradicts: "
                + report.contradictionExamples()).isZero();
        soft.assertThat(report.improperAnswers()).as(d + "answers of a form no buyer should get: "
                + report.improperExamples()).isZero();
        soft.assertThat(report.clean()).as(d + "clean").isTrue();
        // a fault may fail to heal on time (a TC restarted while MariaDB is down); everything is restored after the
        // sale all the same, and what counts is what the system did meanwhile. But every fault must have struck.
        soft.assertThat(runner.lastChaos().events()).as(d + "every fault of the schedule played")
                .hasSize(runner.lastChaos().schedule().steps().size());
        soft.assertThat(report.skus()).allSatisfy(s -> assertThat(s.unitsInConfirmedOrders()).as(s.skuId())
                .isPositive());
        soft.assertAll();
    }

    private static int freePort() {
        return FreePorts.next();
    }
}
