package io.github.flashstock.sale;

import io.github.flashstock.devstack.Component;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.TreeMap;

/**
 * Redis kill -9, and the last second of its append-only file cut off before it restarts: writes it had acknowledged
 * lost, as a machine crash loses them under {@code appendfsync everysec}.
 */
final class RedisAofTail implements Fault {

    @Override
    public Hit inject(Scene scene) {
        // the AOF's size over the last second and a half, to know where the last second of writes begins
        Path aof = scene.stack().redisAppendFile();
        TreeMap<Instant, Long> sizes = new TreeMap<>();
        Instant sampleUntil = Instant.now().plus(Duration.ofMillis(1500));
        while (Instant.now().isBefore(sampleUntil)) {
            sizes.put(Instant.now(), size(aof));
            ServiceProcess.sleep(Duration.ofMillis(20));
        }
        Instant at = Instant.now();
        List<Long> pids = scene.stack().kill(Component.REDIS);
        long cutTo = sizes.floorEntry(at.minusSeconds(1)).getValue();
        long lost = size(aof) - cutTo;
        truncate(aof, cutTo);
        return new Hit(at, "Redis (PID " + pids + ") killed and the last second of its AOF (" + lost
                + " bytes) cut off");
    }

    @Override
    public String heal(Scene scene) {
        scene.stack().up(EnumSet.of(Component.REDIS));
        return "";
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void truncate(Path file, long size) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(size);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
