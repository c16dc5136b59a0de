package io.github.flashstock.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flashstock.support.auth.ServiceSignature;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What {@link InventoryApi} sends and how it reads the answers, against a fake service on a loopback port. */
class InventoryApiTest {

    private static final byte[] KEY = "a key of at least thirty-two bytes, for HMAC".getBytes(StandardCharsets.UTF_8);
    private static final Instant NOW = Instant.parse("2026-12-03T10:00:00Z");

    private final FakeService service = new FakeService();
    private final InventoryApi api = new InventoryApi(service.url(), "admin-token-for-tests");

    @AfterEach
    void stop() {
        service.close();
    }

    @Test
    void createsASkuWithTheAdminTokenAndLeavesOutWhatIsNotGiven() {
        service.answer(201, "{\"skuId\":\"s-1\",\"stocked\":10,\"segments\":4}");

        InventoryApi.CreatedSku created = api.createSku("s-1", new InventoryApi.NewSku(10, null, null));

        assertThat(created).isEqualTo(new InventoryApi.CreatedSku("s-1", 10, 4));
        FakeService.Request request = service.last();
        assertThat(request.method()).isEqualTo("PUT");
        assertThat(request.path()).isEqualTo("/admin/skus/s-1");
        assertThat(request.header("Authorization")).isEqualTo("Bearer admin-token-for-tests");
        assertThat(request.header("Content-Type")).isEqualTo("application/json");
        assertThat(request.body()).isEqualTo("{\"stocked\":10}");
    }

    @Test
    void aRefusalIsAProblemWithItsStatusTypeAndFacts() {
        service.answer(409, "{\"type\":\"urn:flashstock:problem:sku-exists\",\"title\":\"SKU exists\","
                + "\"status\":409,\"detail\":\"SKU s-1 exists; restock it instead\",\"skuId\":\"s-1\"}");

        assertThatThrownBy(() -> api.createSku("s-1", new InventoryApi.NewSku(10, 5, 1)))
                .isInstanceOfSatisfying(ServiceProblem.class, e -> {
                    assertThat(e.status()).isEqualTo(409);
                    assertThat(e.problem().name()).isEqualTo("sku-exists");
                    assertThat(e.problem().property("skuId")).isEqualTo("s-1");
                    assertThat(e.problem().detail()).isEqualTo("SKU s-1 exists; restock it instead");
                    assertThat(e.retryAfter()).isEmpty();
                    assertThat(e).hasMessage("PUT " + service.url() + "/admin/skus/s-1 answered 409 sku-exists:"
                            + " SKU s-1 exists; restock it instead");
                });
    }

    @Test
    void readsTheStockViewOfBothStoresAndSkipsMembersItDoesNotKnow() {
        service.answer(200, "{\"skuId\":\"s\",\"redis\":{\"stocked\":8,\"available\":5,\"reserved\":1,\"sold\":2,"
                + "\"perUserLimit\":2,\"segments\":2,\"segmentDetails\":[{\"index\":0,\"available\":3,\"reserved\":1},"
                + "{\"index\":1,\"available\":2,\"reserved\":0}],\"somethingNew\":true},\"mysql\":{\"stocked\":10,"
                + "\"available\":7,\"reserved\":0,\"sold\":3,\"allotment\":{\"available\":2,\"incoming\":0,\"sold\":1},"
                + "\"perUserLimit\":2,\"version\":7}}");

        InventoryApi.StockView stock = api.stock("s");

        assertThat(stock.redis().available()).isEqualTo(5);
        assertThat(stock.redis().segmentDetails()).containsExactly(new InventoryApi.Segment(0, 3, 1),
                new InventoryApi.Segment(1, 2, 0));
        assertThat(stock.mysql().allotment()).isEqualTo(new InventoryApi.Allotment(2, 0, 1));
        assertThat(stock.mysql().version()).isEqualTo(7);
        assertThat(service.last().header("Authorization")).isEqualTo("Bearer admin-token-for-tests");
    }

    @Test
    void aStockViewAnswered503IsAskedAgainWithinThePatienceGiven() {
        Map<String, String> retry = Map.of("Retry-After", "1");
        service.answer(503, "{\"type\":\"urn:flashstock:problem:sku-rebuilding\",\"status\":503}", retry)
                .answer(200, "{\"skuId\":\"s\",\"redis\":null,\"mysql\":null}");

        assertThat(api.stock("s", Duration.ofSeconds(10)).redis()).isNull();
        assertThat(service.requests()).hasSize(2);

        service.answer(503, "{\"type\":\"urn:flashstock:problem:sku-rebuilding\",\"status\":503}", retry);
        assertThatThrownBy(() -> api.stock("s", Duration.ZERO))
                .isInstanceOfSatisfying(ServiceProblem.class, e -> {
                    assertThat(e.problem().name()).isEqualTo("sku-rebuilding");
                    assertThat(e.retryAfter()).contains("1");
                });
    }

    @Test
    void aTryIsSignedOverTheExactRequestAndItsLinesGoAsLines() {
        service.answer(201, "{\"reservationId\":\"o-1\",\"userId\":\"u-1\",\"xid\":\"10.0.0.1:8091:42\","
                + "\"lines\":[{\"skuId\":\"s\",\"quantity\":3}],\"status\":\"TRIED\"}");
        InventoryApi signed = api.signedAs("order-demo", KEY, Clock.fixed(NOW, ZoneOffset.UTC));

        InventoryApi.Reserved reserved = signed.reserve("10.0.0.1:8091:42", new InventoryApi.Reservation("o-1", "u-1",
                List.of(new InventoryApi.Line("s", 1), new InventoryApi.Line("s", 2))));

        assertThat(reserved.lines()).containsExactly(new InventoryApi.Line("s", 3));
        assertThat(reserved.tried()).isTrue();
        FakeService.Request request = service.last();
        assertThat(request.path()).isEqualTo("/reservations");
        assertThat(request.header(InventoryApi.XID_HEADER)).isEqualTo("10.0.0.1:8091:42");
        assertThat(request.header("Authorization")).as("a Try carries no admin token").isNull();
        assertThat(request.body()).isEqualTo("{\"reservationId\":\"o-1\",\"userId\":\"u-1\",\"lines\":"
                + "[{\"skuId\":\"s\",\"quantity\":1},{\"skuId\":\"s\",\"quantity\":2}]}");
        assertThat(ServiceSignature.verify(Map.of("order-demo", KEY), request.header(ServiceSignature.NAME),
                request.header(ServiceSignature.TIMESTAMP), request.header(ServiceSignature.SIGNATURE), "POST",
                "/reservations", "10.0.0.1:8091:42", request.body().getBytes(StandardCharsets.UTF_8), NOW,
                Duration.ofSeconds(30))).isEmpty();
    }

    @Test
    void aClientThatNamesNoCallerSendsTheTryUnsigned() {
        service.answer(201, "{\"reservationId\":\"o-1\",\"userId\":\"u-1\",\"xid\":\"x:1:2\","
                + "\"lines\":[{\"skuId\":\"s\",\"quantity\":1}],\"status\":\"TRIED\"}");

        InventoryApi.Reserved reserved = api.reserve("x:1:2", new InventoryApi.Reservation("o-1", "u-1",
                List.of(new InventoryApi.Line("s", 1))));

        assertThat(reserved.lines()).containsExactly(new InventoryApi.Line("s", 1));
        assertThat(reserved.tried()).isTrue();
        assertThat(service.last().header(ServiceSignature.SIGNATURE)).as("no caller named: unsigned").isNull();
    }

    @Test
    void restocksAndHandsOverUnderTheirKeysAndReadsTheAnswers() {
        service.answer(200, "{\"skuId\":\"s\",\"stocked\":110,\"available\":60}")
                .answer(202, "{\"operationId\":\"h-1\",\"skuId\":\"s\",\"direction\":\"TO_MYSQL\",\"units\":30,"
                        + "\"moved\":null,\"state\":\"PENDING\",\"reason\":\"operator\","
                        + "\"createdAt\":\"2026-12-03T10:00:00Z\",\"updatedAt\":\"2026-12-03T10:00:01Z\"}");

        assertThat(api.restock("s", 100, "restock-1")).isEqualTo(new InventoryApi.Restocked("s", 110, 60));
        assertThat(service.last().header("Idempotency-Key")).isEqualTo("restock-1");
        assertThat(service.last().body()).isEqualTo("{\"quantity\":100}");

        InventoryApi.Handover handover = api.handOver("s", "TO_MYSQL", 30, "h-1");
        assertThat(handover.state()).isEqualTo("PENDING");
        assertThat(handover.moved()).isNull();
        assertThat(handover.createdAt()).isEqualTo(NOW);
        assertThat(service.last().path()).isEqualTo("/admin/skus/s/handovers");
        assertThat(service.last().body()).isEqualTo("{\"direction\":\"TO_MYSQL\",\"units\":30}");
    }

    @Test
    void readsAPageOfHandovers() {
        service.answer(200, "{\"items\":[{\"operationId\":\"h-1\",\"skuId\":\"s\",\"direction\":\"TO_REDIS\","
                + "\"units\":5,\"moved\":5,\"state\":\"DONE\",\"reason\":\"operator\","
                + "\"createdAt\":\"2026-12-03T10:00:00Z\",\"updatedAt\":\"2026-12-03T10:00:01Z\"}],"
                + "\"page\":2,\"size\":1,\"total\":3}");

        InventoryApi.Listing<InventoryApi.Handover> listing = api.handovers("s", 2, 1);

        assertThat(service.last().method()).isEqualTo("GET");
        assertThat(service.last().path()).isEqualTo("/admin/skus/s/handovers?page=2&size=1");
        assertThat(listing.page()).isEqualTo(2);
        assertThat(listing.size()).isEqualTo(1);
        assertThat(listing.total()).isEqualTo(3);
        assertThat(listing.items()).singleElement().satisfies(h -> {
            assertThat(h.operationId()).isEqualTo("h-1");
            assertThat(h.moved()).isEqualTo(5L);
            assertThat(h.createdAt()).isEqualTo(NOW);
        });
    }

    @Test
    void readsAReconciliationReportWithItsFindingsFactsAsTheyCame() {
        service.answer(201, "{\"runId\":\"r-1\",\"startedAt\":\"2026-12-03T10:00:00Z\","
                + "\"finishedAt\":\"2026-12-03T10:00:02Z\",\"skusChecked\":3,\"findings\":[{\"kind\":"
                + "\"REDIS_MYSQL_DRIFT\",\"skuId\":\"s\",\"facts\":{\"redisSold\":3,\"mysqlSold\":2}}]}");

        InventoryApi.ReconciliationReport report = api.runReconciliation();

        assertThat(service.last().method()).isEqualTo("POST");
        assertThat(service.last().path()).isEqualTo("/admin/reconciliation/runs");
        assertThat(report.skusChecked()).isEqualTo(3);
        assertThat(report.findings()).singleElement().satisfies(f -> {
            assertThat(f.kind()).isEqualTo("REDIS_MYSQL_DRIFT");
            assertThat(f.facts()).hasToString("{\"redisSold\":3,\"mysqlSold\":2}");
        });
    }

    @Test
    void noAnswerIsUnreachableWithTheJdksOwnCause() {
        String url = service.url();
        service.close();

        assertThatThrownBy(() -> new InventoryApi(url, null).available("s"))
                .isInstanceOf(ServiceUnreachable.class)
                .hasCauseInstanceOf(java.net.ConnectException.class)
                .hasMessageStartingWith("GET " + url + "/skus/s/available");
    }
}
