package io.github.flashstock.orderdemo.order.web;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.BDDMockito.given;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.github.flashstock.orderdemo.buyers.BuyerSecurity;
import io.github.flashstock.orderdemo.buyers.BuyerTokenFixtures;
import io.github.flashstock.orderdemo.faults.Fault;
import io.github.flashstock.orderdemo.faults.Faults;
import io.github.flashstock.orderdemo.inventory.InventoryRefused;
import io.github.flashstock.orderdemo.order.Order;
import io.github.flashstock.orderdemo.order.OrderStatus;
import io.github.flashstock.orderdemo.order.PlacingOrders;
import io.github.flashstock.orderdemo.order.ReadingOrders;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.UndeclaredThrowableException;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.seata.core.exception.TransactionException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

/**
 * What {@code POST /orders} answers when placing fails, for each state the order can be found in afterwards: never
 * "rolled back" for an order that may still commit, never an error for one that committed.
 */
@WebMvcTest(OrderController.class)
@Import(BuyerSecurity.class)
// one buyer places every order here, many within a second: the rate limits are BuyerAccessTest's to show
@org.springframework.test.context.TestPropertySource(properties = "orders.rate-limits.per-buyer.burst=100000")
// the packaged defaults are the devstack's, which the service accepts in this profile only (DevstackCredentials)
@ActiveProfiles("devstack")
class OrderAnswersTest {

    private static final String BODY = "{\"items\":[{\"skuId\":\"hot-1\",\"quantity\":1}]}";
    /** The buyer of every order here. */
    private static final String BUYER = BuyerTokenFixtures.bearer("u1");

    @DynamicPropertySource
    static void buyerTokens(DynamicPropertyRegistry registry) {
        BuyerTokenFixtures.configure(registry);
        registry.add("orders.coordinator.retry-within", () -> "300ms");
    }

    @TestConfiguration
    static class Meters {
        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }

    @Autowired
    MockMvc mvc;
    @MockitoBean
    PlacingOrders placing;
    @MockitoBean
    ReadingOrders reading;
    @MockitoBean
    Faults faults;

    @BeforeEach
    void noFault() {
        given(faults.requested(any())).willReturn(Fault.NONE);
    }

    /** Placing fails with {@code failure} after the order's branch opened (its PENDING row written). */
    private ResultActions placeWhenPlacingFailsWith(RuntimeException failure) throws Exception {
        given(placing.place(anyString(), anyString(), any(), any(), any())).willAnswer(call -> {
            PlacingOrders.Progress progress = call.getArgument(4);
            progress.markBegan();
            progress.markOpened();
            throw failure;
        });
        return placeOne();
    }

    private ResultActions placeOne() throws Exception {
        return mvc.perform(post("/orders").contentType(MediaType.APPLICATION_JSON).content(BODY)
                .header("Authorization", BUYER));
    }

    @Test
    void aTransactionTheCoordinatorFailedBeforeTheOrderOpenedIsPlacedAgainInANewOne() throws Exception {
        // the begin fails, then the order branch's registration, then the third transaction commits
        given(placing.place(anyString(), anyString(), any(), any(), any()))
                .willThrow(coordinatorUnreachable())
                .willAnswer(call -> {
                    ((PlacingOrders.Progress) call.getArgument(4)).markBegan();
                    throw coordinatorUnreachable();
                })
                .willReturn("127.0.0.1:18091:9");
        given(reading.status(anyString())).willReturn(OrderStatus.CONFIRMED);

        placeOne().andExpect(status().isCreated()).andExpect(jsonPath("$.status").value("CONFIRMED"));
        org.mockito.Mockito.verify(placing, org.mockito.Mockito.times(3)).place(any(), any(), any(), any(), any());
    }

    /**
     * A commit that returned while the order is still PENDING: a coordinator whose database went away while it
     * committed answers {@code Committing} with a failed result, which Seata's client returns from like any commit,
     * and later rolls the transaction back when it times out. Only a CONFIRMED order is a 201.
     */
    @Test
    void aCommitThatReturnedWithTheOrderStillPendingIsAcceptedNotCreated() throws Exception {
        given(placing.place(anyString(), anyString(), any(), any(), any())).willReturn("127.0.0.1:18091:9");
        given(reading.status(anyString())).willReturn(OrderStatus.PENDING);

        placeOne().andExpect(status().isAccepted()).andExpect(jsonPath("$.status").value("PENDING"))
                .andExpect(header().string("Location", org.hamcrest.Matchers.startsWith("/orders/")));
    }

    @Test
    void aCommitThatReturnedWithTheOrderAlreadyCancelledIsNoSale() throws Exception {
        given(placing.place(anyString(), anyString(), any(), any(), any())).willReturn("127.0.0.1:18091:9");
        given(reading.status(anyString())).willReturn(OrderStatus.CANCELLED);

        placeOne().andExpect(status().isConflict())
                .andExpect(jsonPath("$.type").value(org.hamcrest.Matchers.endsWith("order-cancelled")));
    }

    @Test
    void aCommitThatReturnedWhileTheOrderCannotBeReadIsOfUnknownOutcome() throws Exception {
        given(placing.place(anyString(), anyString(), any(), any(), any())).willReturn("127.0.0.1:18091:9");
        given(reading.status(anyString())).willThrow(new CannotGetJdbcConnectionException("database away"));

        placeOne().andExpect(status().isServiceUnavailable())
                .andExpect(jsonPath("$.type").value(org.hamcrest.Matchers.endsWith("order-outcome-unknown")))
                .andExpect(header().exists("Retry-After"));
    }

    @Test
    void aCoordinatorThatFailsEveryTransactionEndsTheTriesWhenTheNextWouldStartPastTheBudget() throws Exception {
        // orders.coordinator.retry-within is 300 ms here: pauses of 50 and 100 ms; a fourth try would need 200 more
        given(placing.place(anyString(), anyString(), any(), any(), any())).willThrow(coordinatorUnreachable());
        given(reading.findIfAny(anyString())).willReturn(Optional.empty());

        placeOne().andExpect(status().isServiceUnavailable())
                .andExpect(jsonPath("$.type").value(org.hamcrest.Matchers.endsWith("coordinator-unavailable")));
        org.mockito.Mockito.verify(placing, org.mockito.Mockito.times(3))
                .place(any(), any(), any(), any(), any());
    }

    @Test
    void aCallThatWaitedOutItsTimeoutBeforeFailingDoesNotUseUpTheBudget() throws Exception {
        // the first begin was in flight to a TC that died: it fails only after longer than the whole budget (300 ms)
        given(placing.place(anyString(), anyString(), any(), any(), any()))
                .willAnswer(call -> {
                    Thread.sleep(400);
                    throw coordinatorUnreachable();
                })
                .willReturn("127.0.0.1:18091:9");
        given(reading.status(anyString())).willReturn(OrderStatus.CONFIRMED);

        placeOne().andExpect(status().isCreated());
        org.mockito.Mockito.verify(placing, org.mockito.Mockito.times(2)).place(any(), any(), any(), any(), any());
    }

    @Test
    void aFailureAfterTheOrderOpenedOrNotTheCoordinatorsIsNeverPlacedAgain() throws Exception {
        orderNowIs(OrderStatus.PENDING);
        placeWhenPlacingFailsWith(coordinatorUnreachable()).andExpect(status().isAccepted());
        org.mockito.Mockito.verify(placing, org.mockito.Mockito.times(1)).place(any(), any(), any(), any(), any());

        org.mockito.Mockito.clearInvocations(placing);
        given(reading.findIfAny(anyString())).willReturn(Optional.empty());
        org.mockito.BDDMockito.willThrow(new IllegalStateException("not the coordinator")).given(placing)
                .place(anyString(), anyString(), any(), any(), any());
        placeOne().andExpect(status().isInternalServerError());
        org.mockito.Mockito.verify(placing, org.mockito.Mockito.times(1)).place(any(), any(), any(), any(), any());
    }

    private void orderNowIs(OrderStatus status) {
        given(reading.findIfAny(anyString())).willAnswer(call -> Optional.of(new Order(call.getArgument(0), "u1",
                status, "127.0.0.1:18091:42", List.of(), Instant.now(), Instant.now())));
    }

    /** What Seata's interceptor throws when the coordinator cannot be reached (a checked exception, wrapped). */
    private static RuntimeException coordinatorUnreachable() {
        return new UndeclaredThrowableException(new TransactionException("can not connect to the coordinator"));
    }

    @Test
    void aCommitWhoseOutcomeIsOpenIsAcceptedAsPendingWithWhereToAsk() throws Exception {
        orderNowIs(OrderStatus.PENDING);

        placeWhenPlacingFailsWith(coordinatorUnreachable())
                .andExpect(status().isAccepted())
                .andExpect(header().string("Location", org.hamcrest.Matchers.startsWith("/orders/")))
                .andExpect(jsonPath("$.status").value("PENDING"))
                .andExpect(jsonPath("$.orderId").isNotEmpty());
    }

    @Test
    void aCommitThatHappenedDespiteTheFailedCallIsCreated() throws Exception {
        orderNowIs(OrderStatus.CONFIRMED);

        placeWhenPlacingFailsWith(coordinatorUnreachable())
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.status").value("CONFIRMED"));
    }

    @Test
    void aCoordinatorAwayBeforeAnythingWasWrittenIsATryAgain() throws Exception {
        given(reading.findIfAny(anyString())).willReturn(Optional.empty());

        placeWhenPlacingFailsWith(coordinatorUnreachable())
                .andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", "2"))
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:coordinator-unavailable"))
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.not(
                        org.hamcrest.Matchers.containsString("null"))))
                .andExpect(jsonPath("$.orderId").isNotEmpty());
    }

    @Test
    void aCoordinatorThatDiesDuringTheBeginIsATryAgainNotAnError() throws Exception {
        // what Seata 2.5 throws when the TC's channel closes while a GlobalBegin waits for its answer
        given(reading.findIfAny(anyString())).willReturn(Optional.empty());
        RuntimeException closed = new RuntimeException(new RuntimeException(
                new io.netty.channel.ChannelException("channel closed")));

        placeWhenPlacingFailsWith(closed)
                .andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", "2"))
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:coordinator-unavailable"))
                .andExpect(jsonPath("$.orderId").isNotEmpty());
    }

    @Test
    void aFailureFromNowhereKnownIsStillAnError() throws Exception {
        given(reading.findIfAny(anyString())).willReturn(Optional.empty());

        placeWhenPlacingFailsWith(new IllegalStateException("a bug"))
                .andExpect(status().isInternalServerError())
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:order-failed"));
    }

    @Test
    void aRefusalIsARefusalEvenWhileItsRollbackIsStillUnderWay() throws Exception {
        orderNowIs(OrderStatus.PENDING);
        ProblemDetail insufficient = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, "only 0 left");
        insufficient.setType(URI.create("urn:flashstock:problem:insufficient-stock"));

        placeWhenPlacingFailsWith(new InventoryRefused(insufficient))
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:insufficient-stock"));
    }

    @Test
    void anOutcomeThatCannotBeReadIsSaidToBeUnknown() throws Exception {
        given(reading.findIfAny(anyString())).willThrow(new DataAccessResourceFailureException("database away"));

        placeWhenPlacingFailsWith(new CannotGetJdbcConnectionException("database away"))
                .andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", "2"))
                .andExpect(header().string("Location", org.hamcrest.Matchers.startsWith("/orders/")))
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:order-outcome-unknown"));
    }

    @Test
    void aDatabaseAwayWhenNothingWasWrittenIsATryAgain() throws Exception {
        given(reading.findIfAny(anyString())).willReturn(Optional.empty());

        placeWhenPlacingFailsWith(new CannotGetJdbcConnectionException("database away"))
                .andExpect(status().isServiceUnavailable())
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:database-unavailable"));
    }

    // ---- Idempotency-Key: a retry returns the order placed under the key, never a second one ----

    private void earlierOrderIs(OrderStatus status, String userId, String sku) {
        given(reading.findIfAny("key-12345678")).willReturn(Optional.of(new Order("key-12345678", userId, status,
                "127.0.0.1:18091:7", List.of(new io.github.flashstock.orderdemo.order.OrderItem(sku, 1)),
                Instant.now(), Instant.now())));
    }

    private ResultActions placeWithKey(String key) throws Exception {
        return mvc.perform(post("/orders").contentType(MediaType.APPLICATION_JSON).content(BODY)
                .header("Authorization", BUYER).header("Idempotency-Key", key));
    }

    @Test
    void aRetryOfAConfirmedOrderAnswersItAgainWithoutPlacingAnother() throws Exception {
        earlierOrderIs(OrderStatus.CONFIRMED, "u1", "hot-1");

        placeWithKey("key-12345678")
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.orderId").value("key-12345678"))
                .andExpect(jsonPath("$.status").value("CONFIRMED"));
        org.mockito.Mockito.verify(placing, org.mockito.Mockito.never()).place(any(), any(), any(), any(), any());
    }

    @Test
    void aRetryOfAnOrderStillOpenIsPendingWithWhereToAsk() throws Exception {
        earlierOrderIs(OrderStatus.PENDING, "u1", "hot-1");

        placeWithKey("key-12345678")
                .andExpect(status().isAccepted())
                .andExpect(header().string("Location", "/orders/key-12345678"))
                .andExpect(jsonPath("$.status").value("PENDING"));
        org.mockito.Mockito.verify(placing, org.mockito.Mockito.never()).place(any(), any(), any(), any(), any());
    }

    @Test
    void aRetryOfACancelledOrderSaysSoAndPlacesNothing() throws Exception {
        earlierOrderIs(OrderStatus.CANCELLED, "u1", "hot-1");

        placeWithKey("key-12345678")
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:order-cancelled"))
                .andExpect(jsonPath("$.orderId").value("key-12345678"));
        org.mockito.Mockito.verify(placing, org.mockito.Mockito.never()).place(any(), any(), any(), any(), any());
    }

    @Test
    void aKeyUsedForAnotherUsersOrderIsRefused() throws Exception {
        earlierOrderIs(OrderStatus.CONFIRMED, "someone-else", "hot-1");

        placeWithKey("key-12345678")
                .andExpect(status().isUnprocessableEntity())
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:idempotency-key-reused"));
        org.mockito.Mockito.verify(placing, org.mockito.Mockito.never()).place(any(), any(), any(), any(), any());
    }

    @Test
    void aFreshKeyBecomesTheOrderId() throws Exception {
        given(reading.findIfAny(anyString())).willReturn(Optional.empty());
        given(placing.place(anyString(), anyString(), any(), any(), any())).willReturn("127.0.0.1:18091:9");
        given(reading.status("fresh-key-1")).willReturn(OrderStatus.CONFIRMED);

        placeWithKey("fresh-key-1")
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.orderId").value("fresh-key-1"));
        org.mockito.Mockito.verify(placing).place(org.mockito.ArgumentMatchers.eq("fresh-key-1"), any(), any(), any(), any());
    }

    @Test
    void aKeyThatCannotBeAnOrderIdIsABadRequest() throws Exception {
        for (String bad : new String[] {"short", "has space in it", "../../etc/passwd", "x".repeat(65), "-leading1"}) {
            placeWithKey(bad)
                    .andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.type").value("urn:flashstock:problem:invalid-request"));
        }
        org.mockito.Mockito.verify(placing, org.mockito.Mockito.never()).place(any(), any(), any(), any(), any());
    }

    @Test
    void aKeyedOrderMeetingTheDatabaseAwayIsATryAgainAndPlacesNothing() throws Exception {
        given(reading.findIfAny("key-12345678")).willThrow(new org.springframework.dao.RecoverableDataAccessException(
                "Communications link failure"));

        placeWithKey("key-12345678")
                .andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", "2"))
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:database-unavailable"))
                .andExpect(jsonPath("$.orderId").value("key-12345678"));
        org.mockito.Mockito.verify(placing, org.mockito.Mockito.never()).place(any(), any(), any(), any(), any());
    }

    @Test
    void aTransactionThatCannotBeginForWantOfAConnectionIsATryAgain() throws Exception {
        given(reading.findIfAny(anyString())).willReturn(Optional.empty());

        placeWhenPlacingFailsWith(new org.springframework.transaction.CannotCreateTransactionException(
                "Could not open JDBC Connection for transaction"))
                .andExpect(status().isServiceUnavailable())
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:database-unavailable"));
    }

    @Test
    void theOrderPageWithTheDatabaseAwayIsATryAgain() throws Exception {
        given(reading.find("o-1")).willThrow(new org.springframework.jdbc.CannotGetJdbcConnectionException("down"));

        mvc.perform(org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get("/orders/o-1")
                        .header("Authorization", BUYER))
                .andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", "2"))
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:database-unavailable"));
    }

    @Test
    void noInventoryInstanceLeftIsATryAgain() throws Exception {
        orderNowIs(OrderStatus.PENDING);

        placeWhenPlacingFailsWith(new io.github.flashstock.orderdemo.inventory.InventoryUnavailable(
                "no inventory instance answered", new java.net.ConnectException("refused")))
                .andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", "2"))
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:inventory-unavailable"))
                .andExpect(jsonPath("$.orderId").isNotEmpty());
    }

    @Test
    void aFullRedisBehindTheInventoryIsATryAgainThatSaysSo() throws Exception {
        orderNowIs(OrderStatus.PENDING);

        placeWhenPlacingFailsWith(new io.github.flashstock.orderdemo.inventory.InventoryUnavailable(
                "inventory service answered 503 SERVICE_UNAVAILABLE redis-full: Redis refuses writes", null,
                "redis-full"))
                .andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", "2"))
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:inventory-unavailable"))
                .andExpect(jsonPath("$.inventoryProblem").value("redis-full"));
    }

    @Test
    void aLocalTransactionWhoseConnectionDiedIsATryAgain() throws Exception {
        // the order branch's local commit failed and so did its rollback: the database went away underneath
        given(reading.findIfAny(anyString())).willReturn(Optional.empty());
        java.sql.SQLException linkFailure = new java.sql.SQLException("Communications link failure", "08S01");

        placeWhenPlacingFailsWith(new org.springframework.transaction.TransactionSystemException(
                "JDBC rollback failed", linkFailure))
                .andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", "2"))
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:database-unavailable"));
    }

    @Test
    void aRollbackOnAClosedConnectionIsATryAgain() throws Exception {
        // as seen in the mariadb-kill drill: the pool's own exception, no SQLSTATE
        given(reading.findIfAny(anyString())).willReturn(Optional.empty());

        placeWhenPlacingFailsWith(new org.springframework.transaction.TransactionSystemException(
                "JDBC rollback failed", new java.sql.SQLException("Connection is closed")))
                .andExpect(status().isServiceUnavailable())
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:database-unavailable"));
    }
}
