package io.github.flashstock.sale;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Redis full, both ways an operator meets it, one after the other. First its memory: {@code maxmemory} set just above
 * what it uses (the devstack's Redis runs {@code noeviction}), so it refuses writes with {@code OOM}, for half the
 * outage. Then its disk: the AOF may not grow by a byte (a file-size limit on the process, which the devstack starts
 * with SIGXFSZ ignored), with {@code appendfsync everysec} for the while, since under {@code always} Redis exits at
 * the first write it cannot append; it refuses writes with {@code MISCONF} for the other half. Healed as an operator
 * would: memory raised back, then the disk given room, {@code appendfsync} back once Redis says it can write again.
 * The line says how many writes Redis refused each way (its {@code errorstats}), so a drill that did not strike shows.
 */
final class RedisFull implements Fault {

    /** Room left above what Redis uses when its memory is capped: a few writes, then refusals. */
    static final long HEADROOM = 8 * 1024;

    private String maxmemory;
    private String appendfsync;
    private long oomBefore;
    private long misconfBefore;
    private long oomRefused;

    @Override
    public Hit inject(Scene scene) {
        maxmemory = configGet(scene, "maxmemory");
        appendfsync = configGet(scene, "appendfsync");
        oomBefore = errors(scene, "OOM");
        misconfBefore = errors(scene, "MISCONF");
        long used = info(scene, "memory", "used_memory");
        Instant at = Instant.now();
        scene.stack().onRedis("CONFIG", "SET", "maxmemory", Long.toString(used + HEADROOM));
        return new Hit(at, "Redis full: its memory (maxmemory " + (used + HEADROOM) + " bytes, " + HEADROOM / 1024
                + " KiB above use) for " + half(scene).toMillis() / 1000.0 + " s");
    }

    @Override
    public Duration outage(Scene scene) {
        return half(scene);
    }

    @Override
    public String heal(Scene scene) {
        scene.stack().onRedis("CONFIG", "SET", "maxmemory", maxmemory);
        oomRefused = errors(scene, "OOM") - oomBefore;
        // the disk: everysec, so that Redis refuses writes rather than exits; then the AOF held at its size
        scene.stack().onRedis("CONFIG", "SET", "appendfsync", "everysec");
        long size = appendFileSize(scene);
        scene.stack().limitFileSize(size);
        ServiceProcess.sleep(half(scene));
        scene.stack().liftFileSizeLimit();
        Instant until = Instant.now().plusSeconds(10);
        while (!"ok".equals(infoText(scene, "persistence", "aof_last_write_status")) && Instant.now().isBefore(until)) {
            ServiceProcess.sleep(Duration.ofMillis(100));
        }
        String status = infoText(scene, "persistence", "aof_last_write_status");
        scene.stack().onRedis("CONFIG", "SET", "appendfsync", appendfsync);
        long misconfRefused = errors(scene, "MISCONF") - misconfBefore;
        if (oomRefused == 0 || misconfRefused == 0 || !"ok".equals(status)) {
            // restored as far as it can be; a drill that did not fill Redis both ways proves nothing
            throw new IllegalStateException("Redis was not full both ways: " + oomRefused + " writes refused (OOM), "
                    + misconfRefused + " (MISCONF); AOF writes " + status + " after the disk had room again");
        }
        // recovered means selling: the hot SKU's units reserved or sold in Redis move again (the service's breaker
        // tests Redis and closes on its own)
        Instant roomAgain = Instant.now();
        List<?> before = movedInRedis(scene);
        Instant patience = roomAgain.plusSeconds(20);
        while (movedInRedis(scene).equals(before)) {
            if (Instant.now().isAfter(patience)) {
                throw new IllegalStateException("Redis had room again, but sold nothing of " + scene.hotSku()
                        + " in the 20 s after");
            }
            ServiceProcess.sleep(Duration.ofMillis(100));
        }
        String sellsAgain = "; Redis sold again " + Duration.between(roomAgain, Instant.now()).toMillis() / 1000.0
                + " s after it had room";
        return "; " + oomRefused + " writes refused (OOM), memory back to maxmemory " + maxmemory
                + "; then its disk full (the AOF held at " + size + " bytes, appendfsync everysec meanwhile) for "
                + half(scene).toMillis() / 1000.0 + " s: " + misconfRefused + " writes refused (MISCONF), AOF writes "
                + status + " once it had room, appendfsync back to " + appendfsync + sellsAgain;
    }

    /** The hot SKU's units reserved and sold in Redis: they change only as Redis takes Tries, Confirms, Cancels. */
    private static List<?> movedInRedis(Scene scene) {
        return (List<?>) scene.stack().onRedis("HMGET", "inv:{" + scene.hotSku() + "}", "reserved", "sold");
    }

    private static Duration half(Scene scene) {
        return scene.outage().dividedBy(2);
    }

    private static long appendFileSize(Scene scene) {
        Path aof = scene.stack().redisAppendFile();
        try {
            return Files.size(aof);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot read the size of " + aof, e);
        }
    }

    private static String configGet(Scene scene, String parameter) {
        List<?> reply = (List<?>) scene.stack().onRedis("CONFIG", "GET", parameter);
        return String.valueOf(reply.get(1));
    }

    /** A field of {@code INFO section}, or empty when Redis does not report it. */
    static String infoText(Scene scene, String section, String field) {
        return field(String.valueOf(scene.stack().onRedis("INFO", section)), field);
    }

    private static long info(Scene scene, String section, String field) {
        return Long.parseLong(infoText(scene, section, field));
    }

    /** How many commands Redis has refused with this error since it started ({@code INFO errorstats}). */
    private static long errors(Scene scene, String prefix) {
        String count = field(String.valueOf(scene.stack().onRedis("INFO", "errorstats")), "errorstat_" + prefix);
        // errorstat_OOM:count=12
        return count.startsWith("count=") ? Long.parseLong(count.substring(6)) : 0;
    }

    static String field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                String value = line.substring(name.length() + 1).trim();
                int comma = value.indexOf(',');
                return comma < 0 ? value : value.substring(0, comma);
            }
        }
        return "";
    }
}
