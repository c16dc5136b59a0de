package io.github.flashstock.inventory.mysqlstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.flashstock.inventory.GlobalTransactions;
import io.github.flashstock.inventory.allotment.StockHandover;
import io.github.flashstock.inventory.reservation.BookScript;
import io.github.flashstock.inventory.reservation.InventoryClient;
import io.github.flashstock.inventory.reservation.TryRequest;
import io.github.flashstock.inventory.stock.StockKeys;
import io.github.flashstock.inventory.stock.StockLine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.seata.tm.api.GlobalTransaction;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.JsonNode;

/**
 * One count per buyer and SKU, whichever store sells, with no fault anywhere: a SKU of 10 with a limit of 2, whose
 * allotment holds 8 and Redis 2. One buyer's orders at once, each a global transaction of its own that commits when
 * its Try reserved, get at most the limit, whether Redis sells them or the allotment does; and a count taken in Redis
 * for a Try the MySQL store never took is given back by the reservation's Cancel.
 */
class OneBuyerCountIT extends StoreSequenceITSupport {

    @Autowired
    BookScript book;

    /** A SKU of 10 units, limit 2, with {@code allotment} of them handed to the MySQL store. */
    private String sku(int allotment) {
        String sku = new InventoryClient(http).skuWith(10, 2, 1);
        assertThat(handover.handOver(sku, StockHandover.Direction.TO_MYSQL, allotment, "op-" + UUID.randomUUID(),
                "test")).isInstanceOf(StockHandover.Result.Done.class);
        return sku;
    }

    /** {@code orders} orders of one unit by the buyer, all at once; each commits if its Try reserved. */
    private List<Integer> ordersAtOnce(String sku, String buyer, int orders) throws Exception {
        InventoryClient inventory = new InventoryClient(http);
        ExecutorService pool = Executors.newFixedThreadPool(orders);
        try {
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < orders; i++) {
                String reservation = buyer + "-order-" + i + "-" + UUID.randomUUID();
                answers.add(pool.submit(() -> {
                    GlobalTransaction tx = GlobalTransactions.beginUnbound("one-buyer-count-it");
                    ResponseEntity<JsonNode> tried = inventory.reserve(tx.getXid(), reservation, buyer,
                            List.of(new InventoryClient.Item(sku, 1)));
                    if (tried.getStatusCode().value() == 201) {
                        GlobalTransactions.commit(tx);
                    } else {
                        assertThat(tried.getBody().path("type").asText()).as("%s", tried.getBody())
                                .isEqualTo("urn:flashstock:problem:purchase-limit-exceeded");
                        GlobalTransactions.rollback(tx);
                    }
                    return tried.getStatusCode().value();
                }));
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> answer : answers) {
                statuses.add(answer.get());
            }
            return statuses;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Units sold to anyone, in both stores, once every Confirm is in. */
    private void awaitSold(String sku, long units) {
        await("both stores' sales of " + sku).atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode stock = new InventoryClient(http).stock(sku);
            assertThat(stock.at("/mysql/sold").asLong()).isEqualTo(units);
            assertThat(stock.at("/redis/reserved").asLong() + stock.at("/mysql/reserved").asLong()).isZero();
        });
    }

    @Test
    void aBuyerAtTheLimitIsRefusedInRedisAndTheAllotmentNeverSellsThemMore() throws Exception {
        String sku = sku(8);

        List<Integer> statuses = ordersAtOnce(sku, "ada", 4);

        assertThat(statuses).filteredOn(s -> s == 201).hasSize(2);
        assertThat(statuses).filteredOn(s -> s == 409).hasSize(2);
        awaitSold(sku, 2);
        assertThat(redis.opsForValue().get(StockKeys.buyer(sku, "ada"))).isEqualTo("2");
    }

    @Test
    void whenRedisIsSoldOutTheAllotmentSellsABuyerUpToTheOneCountOnly() throws Exception {
        String sku = sku(8);
        // Redis's two units go to other buyers: ada's orders all reach the allotment
        assertThat(ordersAtOnce(sku, "bob", 1)).containsExactly(201);
        assertThat(ordersAtOnce(sku, "cleo", 1)).containsExactly(201);
        assertThat(new InventoryClient(http).stock(sku).at("/redis/available").asLong()).isZero();

        List<Integer> statuses = ordersAtOnce(sku, "ada", 4);

        assertThat(statuses).filteredOn(s -> s == 201).hasSize(2);
        awaitSold(sku, 4);
        JsonNode stock = new InventoryClient(http).stock(sku);
        assertThat(stock.at("/mysql/allotment/sold").asLong()).isEqualTo(2);
        assertThat(redis.opsForValue().get(StockKeys.buyer(sku, "ada"))).isEqualTo("2");
        // and one more, later, is refused for the limit, not sold
        assertThat(ordersAtOnce(sku, "ada", 1)).containsExactly(409);
        assertThat(jdbc.queryForObject("SELECT COALESCE(SUM(quantity), 0) FROM stock_ledger WHERE sku_id = ? AND"
                + " user_id = 'ada' AND state = 'CONFIRMED'", Long.class, sku)).isEqualTo(2);
    }

    @Test
    void aCountTakenForATryTheMySqlStoreNeverTookIsGivenBackByItsCancel() throws Exception {
        String sku = sku(8);
        String xid = "127.0.0.1:8091:" + UUID.randomUUID();
        // the count is taken, and the process ends before the MySQL store's Try: no ledger row
        assertThat(book.book(new TryRequest(xid, "order-1", 7, "eve", List.of(new StockLine(sku, 2)))))
                .isInstanceOf(BookScript.Booking.Booked.class);
        assertThat(redis.opsForValue().get(StockKeys.buyer(sku, "eve"))).isEqualTo("2");
        assertThat(book.book(new TryRequest("127.0.0.1:8091:" + UUID.randomUUID(), "order-2", 8, "eve",
                List.of(new StockLine(sku, 1))))).isInstanceOf(BookScript.Booking.LimitExceeded.class);

        // the coordinator rolls the transaction back: the Cancel gives the count back and leaves tombstones
        assertThat(action.cancel(context(xid, "7", "order-1", "eve", sku + "*2"))).isTrue();

        assertThat(redis.opsForValue().get(StockKeys.buyer(sku, "eve"))).isNull();
        assertThat(redis.opsForHash().get(StockKeys.fence(sku, xid, "order-1"), "state")).isEqualTo("CANCELLED");
        assertThat(jdbc.queryForList("SELECT CONCAT(store, ' ', state) FROM stock_ledger WHERE xid = ?",
                String.class, xid)).containsExactly("MYSQL CANCELLED");
        assertThat(ordersAtOnce(sku, "eve", 2)).containsExactly(201, 201);
    }
    /**
     * A retried Try that meets the booking its first attempt left in Redis (that attempt was cut short between the
     * booking and the MySQL store's Try, or is still under way) is answered by the MySQL store, never "already
     * reserved" on the booking's word: here the MySQL store takes the units, and the order sells them once.
     */
    @Test
    void aRetryThatMeetsItsFirstAttemptsBookingIsAnsweredByTheMySqlStore() throws Exception {
        String sku = sku(8);
        GlobalTransaction tx = GlobalTransactions.beginUnbound("one-buyer-count-it");
        String reservation = "order-" + UUID.randomUUID();
        assertThat(book.book(new TryRequest(tx.getXid(), reservation, 7, "fay", List.of(new StockLine(sku, 1)))))
                .isInstanceOf(BookScript.Booking.Booked.class);

        ResponseEntity<JsonNode> retried = new InventoryClient(http).reserve(tx.getXid(), reservation, "fay",
                List.of(new InventoryClient.Item(sku, 1)));

        assertThat(retried.getStatusCode().value()).as("%s", retried.getBody()).isEqualTo(201);
        assertThat(jdbc.queryForList("SELECT CONCAT(store, ' ', state) FROM stock_ledger WHERE xid = ?",
                String.class, tx.getXid())).as("the MySQL store holds it").containsExactly("MYSQL TRIED");
        GlobalTransactions.commit(tx);
        awaitSold(sku, 1);
        assertThat(new InventoryClient(http).stock(sku).at("/mysql/allotment/sold").asLong()).isEqualTo(1);
        assertThat(redis.opsForValue().get(StockKeys.buyer(sku, "fay"))).as("counted once").isEqualTo("1");
    }

    /** One reservation of the given lines by the buyer, in a global transaction that commits if it reserved. */
    private ResponseEntity<JsonNode> order(String buyer, List<InventoryClient.Item> items) throws Exception {
        GlobalTransaction tx = GlobalTransactions.beginUnbound("one-buyer-count-it");
        ResponseEntity<JsonNode> tried = new InventoryClient(http).reserve(tx.getXid(), "order-" + UUID.randomUUID(),
                buyer, items);
        if (tried.getStatusCode().value() == 201) {
            GlobalTransactions.commit(tx);
        } else {
            GlobalTransactions.rollback(tx);
        }
        return tried;
    }

    @Test
    void anOrderOfASkuOnlyTheAllotmentHasAndOneOnlyRedisHasIsSoldEachFromItsStore() throws Exception {
        String inAllotment = sku(10);
        String inRedis = new InventoryClient(http).skuWith(10, 2, 1);

        ResponseEntity<JsonNode> answer = order("max", List.of(new InventoryClient.Item(inAllotment, 1),
                new InventoryClient.Item(inRedis, 1)));

        assertThat(answer.getStatusCode().value()).as("%s", answer.getBody()).isEqualTo(201);
        awaitSold(inAllotment, 1);
        awaitSold(inRedis, 1);
        assertThat(new InventoryClient(http).stock(inAllotment).at("/mysql/allotment/sold").asLong()).isEqualTo(1);
        assertThat(new InventoryClient(http).stock(inRedis).at("/redis/sold").asLong()).isEqualTo(1);
        assertThat(redis.opsForValue().get(StockKeys.buyer(inAllotment, "max"))).isEqualTo("1");
        assertThat(redis.opsForValue().get(StockKeys.buyer(inRedis, "max"))).isEqualTo("1");
    }

    @Test
    void anOrderNeitherStoreCanTakeWholeIsRefusedForTheSkuThatIsShortAndGivesBackTheRest() throws Exception {
        String inAllotment = sku(10);
        String soldOut = new InventoryClient(http).skuWith(1, null, 1);
        assertThat(order("ivy", List.of(new InventoryClient.Item(soldOut, 1))).getStatusCode().value())
                .isEqualTo(201);
        awaitSold(soldOut, 1);

        ResponseEntity<JsonNode> answer = order("max", List.of(new InventoryClient.Item(inAllotment, 2),
                new InventoryClient.Item(soldOut, 1)));

        assertThat(answer.getStatusCode().value()).as("%s", answer.getBody()).isEqualTo(409);
        assertThat(answer.getBody().path("type").asText()).isEqualTo("urn:flashstock:problem:insufficient-stock");
        assertThat(answer.getBody().path("skuId").asText()).as("the SKU no store has").isEqualTo(soldOut);
        awaitSold(inAllotment, 0);
        JsonNode stock = new InventoryClient(http).stock(inAllotment);
        assertThat(stock.at("/mysql/allotment/available").asLong()).as("%s", stock).isEqualTo(10);
        assertThat(redis.opsForValue().get(StockKeys.buyer(inAllotment, "max"))).as("max's count").isIn(null, "0");
        // max can still buy the limit of it
        assertThat(order("max", List.of(new InventoryClient.Item(inAllotment, 2))).getStatusCode().value())
                .isEqualTo(201);
    }
}
