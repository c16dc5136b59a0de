package io.github.flashstock.sale;

import io.github.flashstock.devstack.ClassDataArchive;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Starts a Spring Boot jar the quick way: unpacked once with Spring Boot's own {@code -Djarmode=tools extract}
 * (classes load from plain jars instead of a jar inside a jar), and with a {@link ClassDataArchive} that the first
 * JVM to stop gracefully writes at exit. Measured on two cores ({@code bin/bench-start 3}, medians), inventory-service
 * became healthy in 13.8 s from the packed jar, 9.1 s unpacked and 5.8 s unpacked with the archive
 * (docs/benchmarks.md, "Service start").
 *
 * <p>All of it lives beside the jar, in a folder named after the jar's size and time, so a rebuilt jar starts from
 * a fresh unpacking and an older one is removed.
 */
final class QuickStart {

    private static final Object LOCK = new Object();

    private final Path launchJar;
    private final ClassDataArchive archive;

    private QuickStart(Path launchJar, ClassDataArchive archive) {
        this.launchJar = launchJar;
        this.archive = archive;
    }

    /** Unpacks {@code jar} unless an unpacking of this very build is there already. */
    static QuickStart of(Path jar) {
        try {
            String key = jar.getFileName() + "-" + Files.size(jar) + "-" + Files.getLastModifiedTime(jar).toMillis();
            Path home = jar.toAbsolutePath().getParent().resolve("quick-start");
            Path dir = home.resolve(key);
            synchronized (LOCK) {
                if (!Files.isRegularFile(dir.resolve(jar.getFileName()))) {
                    Files.createDirectories(home);
                    removeOthers(home, key);
                    unpack(jar, home, dir);
                }
            }
            return new QuickStart(dir.resolve(jar.getFileName()), new ClassDataArchive(dir.resolve("classes.jsa")));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack " + jar, e);
        }
    }

    Path launchJar() {
        return launchJar;
    }

    /** The class-data archive of this build's launches. */
    ClassDataArchive archive() {
        return archive;
    }

    private static void unpack(Path jar, Path home, Path dir) throws IOException {
        Path temp = Files.createTempDirectory(home, "unpacking-");
        Process extract = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djarmode=tools", "-jar", jar.toAbsolutePath().toString(), "extract", "--destination", temp.toString(),
                "--force")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            if (!extract.waitFor(2, TimeUnit.MINUTES) || extract.exitValue() != 0) {
                extract.destroyForcibly();
                throw new IOException("unpacking " + jar + " failed (exit "
                        + (extract.isAlive() ? "none" : extract.exitValue()) + ")");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while unpacking " + jar, e);
        }
        try {
            Files.move(temp, dir, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, dir);
        } catch (IOException e) {
            // another JVM unpacked the same build first: use that one
            delete(temp);
            if (!Files.isRegularFile(dir.resolve(jar.getFileName()))) {
                throw e;
            }
        }
    }

    private static void removeOthers(Path home, String key) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(home)) {
            for (Path entry : entries) {
                if (!entry.getFileName().toString().equals(key)) {
                    delete(entry);
                }
            }
        }
    }

    private static void delete(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
