package io.github.flashstock.orderdemo.order;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which failures {@link CoordinatorFailures} puts on the coordinator, and which it leaves to the order's own work. */
class CoordinatorFailuresTest {

    @Test
    void anExceptionThrownByTheTransactionManagersCallIsTheCoordinators() {
        // the TM's begin cast the answer it was handed, a GlobalCommitResponse
        ClassCastException mixedUp = thrownAt(new ClassCastException("GlobalCommitResponse cannot be cast to"
                + " GlobalBeginResponse"), CoordinatorFailures.TM_CALLS, "begin");

        assertThat(CoordinatorFailures.is(mixedUp)).isTrue();
        assertThat(CoordinatorFailures.is(new IllegalStateException("wrapped", mixedUp))).isTrue();
    }

    @Test
    void aTryRefusedBecauseTheCoordinatorRolledItsTransactionBackFirstIsTheCoordinators() {
        OrderGroups.SuspendedTry suspended = new OrderGroups.SuspendedTry(java.util.List.of("127.0.0.1:8091:1"));

        assertThat(CoordinatorFailures.is(suspended)).isTrue();
        assertThat(CoordinatorFailures.is(new IllegalStateException("wrapped", suspended))).isTrue();
    }

    @Test
    void anExceptionOfTheOrdersOwnWorkIsNotEvenThoughSeatasTemplateIsBelowIt() {
        IllegalStateException own = new IllegalStateException("inventory said no");
        own.setStackTrace(new StackTraceElement[] {
                new StackTraceElement("io.github.flashstock.orderdemo.order.PlacingOrders", "place", null, 1),
                new StackTraceElement("org.apache.seata.tm.api.TransactionalTemplate", "execute", null, 2),
                new StackTraceElement(CoordinatorFailures.TM_CALLS, "begin", null, 3)});

        assertThat(CoordinatorFailures.is(own)).isFalse();
        assertThat(CoordinatorFailures.is(new RuntimeException("plain"))).isFalse();
    }

    private static <T extends Throwable> T thrownAt(T e, String className, String method) {
        e.setStackTrace(new StackTraceElement[] {new StackTraceElement(className, method, null, 53),
                new StackTraceElement("org.apache.seata.tm.api.DefaultGlobalTransaction", "begin", null, 113)});
        return e;
    }
}
