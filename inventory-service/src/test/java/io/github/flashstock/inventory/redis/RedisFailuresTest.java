package io.github.flashstock.inventory.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisCommandExecutionException;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.RedisSystemException;

/** What a failed Redis call says about Redis, for the error replies of a Redis that refuses writes. */
class RedisFailuresTest {

    private static RedisSystemException reply(String message) {
        return new RedisSystemException("Error in execution", new RedisCommandExecutionException(message));
    }

    @Test
    void aFullRedisOrOneThatCannotPersistRefusedTheCallBeforeRunningIt() {
        for (RedisSystemException e : new RedisSystemException[] {
                reply("OOM command not allowed when used memory > 'maxmemory'. script: 05e0, on @user_script:1."),
                reply("MISCONF Errors writing to the AOF file: No space left on device")}) {
            assertThat(RedisFailures.refusesWrites(e)).as(e.getCause().getMessage()).isTrue();
            assertThat(RedisFailures.unreachable(e)).isTrue();
            assertThat(RedisFailures.notSent(e)).as("nothing of the call ran").isTrue();
        }
    }

    @Test
    void aScriptStoppedAtAKeyOfASlotBeingMigratedRanNothing() {
        for (RedisSystemException e : new RedisSystemException[] {
                reply("ERR Script attempted to access a non local key in a cluster node script: abc, on"
                        + " @user_script:160."),
                reply("ERR Unable to execute command 'exists' in script because undeclared keys were accessed during"
                        + " rehashing of the slot script: a921, on @user_script:134."),
                reply("ERR Script attempted to execute a command while the cluster is down script: abc")}) {
            assertThat(RedisFailures.slotElsewhere(e)).as(e.getCause().getMessage()).isTrue();
            assertThat(RedisFailures.unreachable(e)).isTrue();
            assertThat(RedisFailures.notSent(e)).as("every script touches its keys before it writes").isTrue();
        }
    }

    @Test
    void anyOtherErrorReplyIsRedisAnswering() {
        RedisSystemException e = reply("ERR user_script:12: Script attempted to access nonexistent global variable");

        assertThat(RedisFailures.refusesWrites(e)).isFalse();
        assertThat(RedisFailures.unreachable(e)).isFalse();
        assertThat(RedisFailures.notSent(e)).isFalse();
        assertThat(RedisFailures.refusesWrites(reply("WRONGTYPE Operation against a key holding the wrong kind")))
                .isFalse();
    }
}
