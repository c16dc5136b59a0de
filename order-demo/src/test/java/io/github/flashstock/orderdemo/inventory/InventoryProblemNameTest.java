package io.github.flashstock.orderdemo.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/** What the buyer's answer carries of the inventory's 5xx problem: its name, and nothing else a stranger wrote. */
class InventoryProblemNameTest {

    private static ProblemDetail typed(String type) {
        ProblemDetail p = ProblemDetail.forStatus(HttpStatus.SERVICE_UNAVAILABLE);
        if (type != null) {
            p.setType(URI.create(type));
        }
        return p;
    }

    @Test
    void theNameIsTheLastSegmentOfTheType() {
        assertThat(InventoryClient.problemName(typed("urn:flashstock:problem:redis-full"))).isEqualTo("redis-full");
        assertThat(InventoryClient.problemName(typed("urn:flashstock:problem:mysql-store-busy")))
                .isEqualTo("mysql-store-busy");
    }

    @Test
    void noTypeOrOneThatIsNotANameGivesNone() {
        assertThat(InventoryClient.problemName(typed(null))).isNull();
        assertThat(InventoryClient.problemName(typed("about:blank"))).isNull();
        assertThat(InventoryClient.problemName(typed("urn:x:Hello%20there"))).isNull();
        assertThat(InventoryClient.problemName(typed("urn:x:" + "a".repeat(65)))).isNull();
    }
}
