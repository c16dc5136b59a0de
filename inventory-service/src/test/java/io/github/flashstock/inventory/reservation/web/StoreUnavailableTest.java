package io.github.flashstock.inventory.reservation.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * A store that does not answer (a Redis command timing out while a cluster node fails over, a connection being
 * re-established) is a 503 to retry, never a 500. ClusterReservationIT met the timeout as a 500 on the admin API.
 */
class StoreUnavailableTest {

    private final ProblemAdvice advice = RedisFullProblemTest.advice(null);

    @Test
    void aTimedOutOrUnreachableStoreIsA503ToRetry() {
        for (org.springframework.dao.DataAccessException e : new org.springframework.dao.DataAccessException[] {
                new QueryTimeoutException("Redis command timed out"),
                new RedisConnectionFailureException("Unable to connect to Redis")}) {
            ResponseEntity<ProblemDetail> answer = advice.storeUnavailable(e);

            assertThat(answer.getStatusCode().value()).isEqualTo(503);
            assertThat(answer.getHeaders().getFirst("Retry-After")).isEqualTo("1");
            assertThat(answer.getBody().getType().toString()).isEqualTo("urn:flashstock:problem:store-unavailable");
        }
    }
}
