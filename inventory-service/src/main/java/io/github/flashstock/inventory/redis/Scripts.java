package io.github.flashstock.inventory.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Loads a script from {@code lua/} on the class path (packaged from the repository's {@code lua/} folder), always
 * with {@code lua/prelude.lua} before it: the helpers the scripts share are written there once. Every place that
 * sends a script to Redis takes its text from {@link #source(String)}.
 */
public final class Scripts {

    /** The shared helpers, put before every script. */
    public static final String PRELUDE = "prelude.lua";

    private Scripts() {
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    public static RedisScript<List<Long>> load(String name) {
        return (RedisScript) RedisScript.of(source(name), List.class);
    }

    /**
     * What Redis is sent for {@code lua/<name>}: the prelude without its final newline, one newline, then the script.
     * Line L of a Redis error about it is line L - P of the script, P being the prelude's line count
     * ({@code wc -l < lua/prelude.lua}); {@code bin/lua-eval} builds the same text for {@code redis-cli --eval}.
     */
    public static String source(String name) {
        if (name.equals(PRELUDE)) {
            throw new IllegalArgumentException(PRELUDE + " is put before every script; it is not one itself");
        }
        return read(PRELUDE).stripTrailing() + "\n" + read(name);
    }

    private static String read(String name) {
        try {
            return new ClassPathResource("lua/" + name).getContentAsString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read lua/" + name + " from the class path", e);
        }
    }

    /** The reply's element at {@code index} as a long; a script reply of integers always decodes to Longs. */
    public static long at(List<Long> reply, int index) {
        return reply.get(index);
    }

    public static IllegalStateException unknownCode(String script, List<Long> reply) {
        return new IllegalStateException("unknown reply from " + script + ": " + reply);
    }
}
