package io.github.flashstock.inventory.redis;

import java.util.List;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.script.RedisScript;

/** Loads a script from {@code lua/} on the class path (packaged from the repository's {@code lua/} folder). */
public final class Scripts {

    private Scripts() {
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    public static RedisScript<List<Long>> load(String name) {
        return (RedisScript) RedisScript.of(new ClassPathResource("lua/" + name), List.class);
    }

    /** The reply's element at {@code index} as a long; a script reply of integers always decodes to Longs. */
    public static long at(List<Long> reply, int index) {
        return reply.get(index);
    }

    public static IllegalStateException unknownCode(String script, List<Long> reply) {
        return new IllegalStateException("unknown reply from " + script + ": " + reply);
    }
}
