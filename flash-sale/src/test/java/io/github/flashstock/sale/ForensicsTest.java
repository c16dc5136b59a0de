package io.github.flashstock.sale;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
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
}
