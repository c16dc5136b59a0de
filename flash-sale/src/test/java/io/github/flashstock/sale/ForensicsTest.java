package io.github.flashstock.sale;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ForensicsTest {

    @Test
    void findsTheXidsTheChecksNameOnceEachInOrder() {
        List<String> texts = List.of(
                "order 1eae (xid 192.0.2.2:18091:9859309449664235) CONFIRMED with 1 x d2, reservation TRIED 1",
                "LEDGER_CONTRADICTS d {\"redisState\":\"TRIED\",\"xid\":\"192.0.2.2:18092:18866508784481366\"}",
                "again 192.0.2.2:18091:9859309449664235, and a port 127.0.0.1:18091 that is no XID");

        assertThat(Forensics.xidsIn(texts, 5))
                .containsExactly("192.0.2.2:18091:9859309449664235", "192.0.2.2:18092:18866508784481366");
        assertThat(Forensics.xidsIn(texts, 1)).containsExactly("192.0.2.2:18091:9859309449664235");
    }

    @Test
    void findsTheOpenTransactionMarkOnlyInWhatTheLogsGainedSinceTheDrillBegan(@TempDir Path dir) throws Exception {
        Path inventory = dir.resolve("inventory-service.log");
        Path order = dir.resolve("order-demo.log");
        String mark = Forensics.OPEN_TRANSACTION_RETURNED + " (data source dataSource, autocommit ...); rolled back.";
        Files.write(inventory, List.of("an earlier drill: " + mark));
        Map<Path, Long> start = Forensics.sizes(List.of(inventory));
        assertThat(Forensics.linesSince(start, List.of(inventory), Forensics.OPEN_TRANSACTION_RETURNED, 3)).isEmpty();

        Files.write(inventory, List.of("quiet", "this drill: " + mark), java.nio.file.StandardOpenOption.APPEND);
        Files.write(order, List.of("a new instance's log: " + mark, mark, mark)); // not there at the start: all read

        List<String> found = Forensics.linesSince(start, List.of(inventory, order, dir.resolve("missing.log")),
                Forensics.OPEN_TRANSACTION_RETURNED, 3);
        assertThat(found).hasSize(3);
        assertThat(found.get(0)).startsWith("inventory-service.log: this drill: ");
        assertThat(found.get(1)).startsWith("order-demo.log: a new instance's log: ");
    }

    @Test
    void collectsTheLinesOfEveryLogThatMentionAnXidUpToTheLimit(@TempDir Path dir) throws Exception {
        Path tc = dir.resolve("seata-server.18092.all.log");
        Path service = dir.resolve("inventory-service.log");
        String xid = "192.0.2.2:18092:100200300";
        Files.write(tc, List.of("Register branch successfully, xid = " + xid + ", branchId = 7",
                "unrelated", "Commit branch transaction successfully, xid = " + xid + " branchId = 7",
                "third " + xid));
        Files.write(service, List.of("confirm of " + xid + " x".repeat(300)));

        Map<String, List<String>> found = Forensics.lines(List.of(xid, "1.2.3.4:1:999999"),
                List.of(tc, service, dir.resolve("missing.log")), 2);

        assertThat(found.get(xid)).hasSize(3);
        assertThat(found.get(xid).get(0)).startsWith("seata-server.18092.all.log: Register branch");
        assertThat(found.get(xid).get(1)).contains("Commit branch");
        assertThat(found.get(xid).get(2)).startsWith("inventory-service.log: confirm of").endsWith(" ...")
                .hasSizeLessThan(450);
        assertThat(found.get("1.2.3.4:1:999999")).isEmpty();
    }

    /** Redis copies answering from a table: port to (command line to reply). */
    private static Forensics.RedisCopies copies(Map<Integer, Map<String, Object>> replies) {
        return new Forensics.RedisCopies() {
            @Override
            public List<Integer> ports() {
                return List.copyOf(replies.keySet());
            }

            @Override
            public Object read(int port, String... command) {
                return replies.get(port).getOrDefault(String.join(" ", command), List.of());
            }
        };
    }

    @Test
    void aRunThatIsNotCleanShowsWhatEachStoreAndEachRedisCopyHoldsOfTheNamedReservations(@TempDir Path dir)
            throws Exception {
        String xid = "192.0.2.2:18091:9859417798895293";
        // the SKU stays 1 unit reserved in Redis, sold in MySQL: Redis's sold is behind
        DrillReport.SkuOutcome hot = new DrillReport.SkuOutcome("hot", new StockCounts(10, 10, 4, 1, 5, 6, 0, 0, 0,
                0), 6);
        DrillReport report = new DrillReport(Drill.CHAOS, 10, Map.of("201", 6), 0, 0, 0, List.of(), 0, List.of(),
                List.of(hot), 0, 0, List.of("LEDGER_CONTRADICTS hot {xid=" + xid + ", redisState=TRIED}"), List.of(),
                List.of(), "fault", Duration.ofSeconds(1), Duration.ofSeconds(1), false);
        List<StateReader.LedgerRow> ledger = List.of(new StateReader.LedgerRow(xid, "order-1", "hot", 1, "CONFIRMED",
                        "REDIS"), new StateReader.LedgerRow("192.0.2.2:18091:1111111", "order-2", "hot", 5,
                        "CONFIRMED", "REDIS"), new StateReader.LedgerRow("192.0.2.2:18091:2222222", "order-3", "other",
                        1, "CONFIRMED", "MYSQL"));
        String fence = "inv:{hot}:tx:" + xid + ":order-1";
        Map<Integer, Map<String, Object>> replies = new java.util.LinkedHashMap<>();
        replies.put(16380, Map.of("INFO replication", "# Replication\r\nrole:master\r\nconnected_slaves:1",
                "INFO server", "redis_version:8.0.1\r\nrun_id:aaa\r\n", "HGETALL inv:{hot}",
                List.of("epoch", "aaa", "sold", "5"), "HGETALL " + fence, List.of("state", "TRIED", "qty", "1")));
        replies.put(16383, Map.of("INFO replication", "role:slave", "INFO server", "run_id:bbb",
                "HGETALL " + fence, List.of("state", "CONFIRMED", "qty", "1")));
        replies.put(16384, Map.of("INFO replication", "unreachable: java.net.ConnectException",
                "INFO server", "unreachable: java.net.ConnectException"));
        Path node = dir.resolve("node-16383.log");
        Files.write(node, List.of("1:S 06 Dec 2026 02:30:01.000 * Connecting to MASTER 127.0.0.1:16380",
                "1:S 06 Dec 2026 02:30:02.000 * Background saving started", "1:M 06 Dec 2026 02:30:09.000 #"
                        + " Failover election won for epoch 9.",
                "1:M 06 Dec 2026 02:30:09.100 # configEpoch set to 9"));
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();

        Forensics.printStores(report, ledger, copies(replies), List.of(node, dir.resolve("gone.log")),
                new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8));

        String printed = bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(printed).contains("ledger of hot, units by store/state: {REDIS/CONFIRMED=6}")
                .doesNotContain("ledger of other")
                .contains("inv:{hot} on each Redis server:", "16380 master run_id aaa: epoch=aaa sold=5",
                        "16383 slave run_id bbb: (none)", "16384 unreachable: java.net.ConnectException")
                .contains(xid + " order-1: ledger CONFIRMED in REDIS, 1 x hot; its fence record:",
                        "16380 master run_id aaa: state=TRIED qty=1", "16383 slave run_id bbb: state=CONFIRMED qty=1")
                .contains("node-16383.log, roles and failovers (last 3 of 3):", "Failover election won",
                        "configEpoch set to 9", "Connecting to MASTER")
                .doesNotContain("Background saving");

        java.io.ByteArrayOutputStream none = new java.io.ByteArrayOutputStream();
        DrillReport clean = new DrillReport(Drill.CHAOS, 10, Map.of("201", 5), 0, 0, 0, List.of(), 0, List.of(),
                List.of(new DrillReport.SkuOutcome("hot", new StockCounts(10, 10, 5, 0, 5, 5, 0, 0, 0, 0), 5)), 0, 0,
                List.of(), List.of(), List.of(), "fault", Duration.ofSeconds(1), Duration.ofSeconds(1), true);
        Forensics.printStores(clean, ledger, copies(replies), List.of(node), new java.io.PrintStream(none));
        assertThat(none.size()).as("a clean run prints nothing").isZero();
    }

    @Test
    void keysOfTheDrillsSkusOnARedisItsServicesDoNotUseAreFindingsPageByPage() {
        Map<String, Object> standalone = Map.of(
                "SCAN 0 MATCH inv:{hot}* COUNT 1000", List.of("17", List.of("inv:{hot}:tx:x1:r1")),
                "SCAN 17 MATCH inv:{hot}* COUNT 1000", List.of("0", List.of("inv:{hot}", "inv:{hot}:buyer:b1")),
                "SCAN 0 MATCH inv:{warm}* COUNT 1000", List.of("0", List.of()));

        List<String> found = Forensics.strayKeys(copies(Map.of(16379, standalone)), List.of("warm", "hot"));

        assertThat(found).singleElement().asString().startsWith("STRAY_PARTICIPANT hot: 3 key(s) of it on the Redis"
                + " at port 16379").contains("inv:{hot}:buyer:b1");
        assertThat(Forensics.strayKeys(copies(Map.of()), List.of("hot"))).as("no other server").isEmpty();
        Map<String, Object> down = Map.of("SCAN 0 MATCH inv:{hot}* COUNT 1000",
                "unreachable: java.net.ConnectException");
        assertThat(Forensics.strayKeys(copies(Map.of(16379, down)), List.of("hot"))).as("a server that does not run")
                .isEmpty();
        Map<String, Object> refusing = Map.of("SCAN 0 MATCH inv:{hot}* COUNT 1000", "-NOAUTH Authentication required.");
        assertThat(Forensics.strayKeys(copies(Map.of(16379, refusing)), List.of("hot"))).singleElement().asString()
                .contains("did not answer a SCAN", "NOAUTH");
    }
}
