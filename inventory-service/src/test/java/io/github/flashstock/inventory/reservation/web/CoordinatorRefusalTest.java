package io.github.flashstock.inventory.reservation.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.seata.common.exception.FrameworkException;
import org.apache.seata.core.exception.RmTransactionException;
import org.apache.seata.core.exception.TransactionExceptionCode;
import org.junit.jupiter.api.Test;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/** How a failed branch registration is answered: the caller's stale transaction, or a coordinator to retry. */
class CoordinatorRefusalTest {

    private final ProblemAdvice advice = RedisFullProblemTest.advice(null);

    private static FrameworkException registrationFailed(TransactionExceptionCode code) {
        return new FrameworkException(new RmTransactionException(code, "branch register failed"),
                "TCC branch Register error");
    }

    @Test
    void aTransactionTheCoordinatorDoesNotHoldIsTheCallersConflict() {
        ResponseEntity<ProblemDetail> answer =
                advice.coordinator(registrationFailed(TransactionExceptionCode.GlobalTransactionNotExist));

        assertThat(answer.getStatusCode().value()).isEqualTo(409);
        assertThat(answer.getBody().getType().toString()).isEqualTo("urn:flashstock:problem:transaction-not-active");
    }

    @Test
    void aTransactionPastItsBeginningIsAlsoTheCallersConflict() {
        assertThat(advice.coordinator(registrationFailed(TransactionExceptionCode.GlobalTransactionStatusInvalid))
                .getStatusCode().value()).isEqualTo(409);
    }

    @Test
    void anythingElseIsACoordinatorToRetryLater() {
        ResponseEntity<ProblemDetail> answer = advice.coordinator(new FrameworkException("can not connect to TC"));

        assertThat(answer.getStatusCode().value()).isEqualTo(503);
        assertThat(answer.getHeaders().getFirst("Retry-After")).isEqualTo("1");
        assertThat(answer.getBody().getType().toString()).isEqualTo("urn:flashstock:problem:coordinator-unavailable");
    }
}
