package io.github.flashstock.inventory.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/redis-budget}: it runs the scripts on a Redis server of its own and measures every kind of key they
 * write, each a plausible size (a record, a count and an entry are tens to hundreds of bytes, never zero), and
 * projects a sale from them.
 */
class RedisBudgetCommandIT {

    @Test
    void measuresEveryKindOfKeyAndProjectsASale() throws Exception {
        Path command = Path.of("..", "bin", "redis-budget").toAbsolutePath().normalize();
        Process run = new ProcessBuilder(command.toString(), "--orders", "200", "--buyers", "40", "--skus", "10",
                "--orders-per-second", "100", "--hours", "1").redirectErrorStream(true).start();
        String out = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(run.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(run.exitValue()).as(out).isZero();
        for (String key : new String[] {"stock hash", "one segment", "finished record", "open record", "open set",
                "buyer count", "event stream, per unsent entry", "used_memory per order here"}) {
            Matcher m = Pattern.compile("(?m)^  " + Pattern.quote(key) + ".*?(\\d+)$").matcher(out);
            assertThat(m.find()).as("%s in%n%s", key, out).isTrue();
            assertThat(Long.parseLong(m.group(1))).as(key).isBetween(16L, 4096L);
        }
        assertThat(out).contains("360000 orders").containsPattern("at most, all together\\s+\\d+ MB");
    }
}
