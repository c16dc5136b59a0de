package io.github.flashstock.inventory.reservation.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flashstock.inventory.redis.RedisHealth;
import io.github.flashstock.inventory.reservation.TryOutcome;
import io.github.flashstock.inventory.reservation.TryRefused;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.lettuce.core.RedisCommandExecutionException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * A Try the MySQL store cannot take while Redis is away says why Redis is away when Redis refused writes: 503
 * {@code redis-full} with Retry-After. Redis away for another reason (a timeout), or not away, leaves the MySQL store's
 * own answer, 503 {@code mysql-store-busy}.
 */
class RedisFullProblemTest {

    private static RedisHealth breakerOpenedBy(RuntimeException failure) {
        RedisHealth health = new RedisHealth(CircuitBreakerRegistry.of(CircuitBreakerConfig.custom()
                .slidingWindowSize(2).minimumNumberOfCalls(2).failureRateThreshold(50)
                .waitDurationInOpenState(Duration.ofMinutes(1)).build()));
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> health.call(() -> {
                throw failure;
            })).isInstanceOf(RuntimeException.class);
        }
        assertThat(health.healthy()).as("the breaker opened").isFalse();
        return health;
    }

    /** The advice as Spring makes it, with {@code health} as Redis's breaker (none: a context without Redis). */
    static ProblemAdvice advice(RedisHealth health) {
        org.springframework.beans.factory.support.StaticListableBeanFactory beans =
                new org.springframework.beans.factory.support.StaticListableBeanFactory();
        if (health != null) {
            beans.addBean("redisHealth", health);
        }
        return new ProblemAdvice(beans.getBeanProvider(RedisHealth.class));
    }

    private static ResponseEntity<ProblemDetail> busyAnswer(RedisHealth health) {
        return advice(health).refused(new TryRefused(new TryOutcome.MysqlStoreBusy("s1",
                "SKU s1: Redis is out of reach and the MySQL store's allotment has 0 unit(s), 1 requested")));
    }

    @Test
    void aTryRefusedWhileRedisRefusesWritesSaysRedisIsFull() {
        for (String reply : new String[] {"OOM command not allowed when used memory > 'maxmemory'.",
                "MISCONF Errors writing to the AOF file: No space left on device"}) {
            RedisHealth health = breakerOpenedBy(new RedisSystemException("Error in execution",
                    new RedisCommandExecutionException(reply)));

            ResponseEntity<ProblemDetail> answer = busyAnswer(health);

            assertThat(health.refusingWrites()).isTrue();
            assertThat(answer.getStatusCode().value()).isEqualTo(503);
            assertThat(answer.getHeaders().getFirst("Retry-After")).isEqualTo("1");
            assertThat(answer.getBody().getType().toString()).isEqualTo("urn:flashstock:problem:redis-full");
            assertThat(answer.getBody().getDetail()).contains("Redis refuses writes").contains("allotment has 0");
            assertThat(answer.getBody().getProperties()).containsEntry("skuId", "s1");
        }
    }

    @Test
    void aTryRefusedWhileRedisIsAwayForAnotherReasonOrNotAwayIsTheMysqlStoresAnswer() {
        RedisHealth timedOut = breakerOpenedBy(new QueryTimeoutException("Redis command timed out"));
        RedisHealth closed = new RedisHealth(CircuitBreakerRegistry.ofDefaults());

        for (RedisHealth health : new RedisHealth[] {timedOut, closed, null}) {
            ResponseEntity<ProblemDetail> answer = busyAnswer(health);

            assertThat(health == null || !health.refusingWrites()).isTrue();
            assertThat(answer.getStatusCode().value()).isEqualTo(503);
            assertThat(answer.getBody().getType().toString()).isEqualTo("urn:flashstock:problem:mysql-store-busy");
        }
    }
}
