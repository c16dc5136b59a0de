package io.github.flashstock.inventory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * The service's dataId {@code inventory-service.yaml}, copied from {@code nacos-config/} into a folder of the test
 * run's own, which the service imports ({@code flashstock.config.source}, a system property, so Spring Cloud's
 * refresh reads the same place). A test edits it and refreshes: the path a Nacos change takes.
 */
public final class LiveConfig {

    private static final Path FILE = install();

    private LiveConfig() {
    }

    private static Path install() {
        try {
            Path root = Path.of(System.getProperty("devstack.root", "..")).toAbsolutePath().normalize();
            Path dir = Files.createTempDirectory("inventory-config");
            Path file = dir.resolve("inventory-service.yaml");
            Files.copy(root.resolve("nacos-config/inventory-service.yaml"), file);
            System.setProperty("flashstock.config.source", "file:" + dir + "/");
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Makes sure the copy is in place before a Spring context starts. */
    static void ensureInstalled() {
        if (!Files.isRegularFile(FILE)) {
            throw new IllegalStateException("configuration copy missing: " + FILE);
        }
    }

    public static String read() {
        try {
            return Files.readString(FILE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void write(String content) {
        try {
            Files.writeString(FILE, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void edit(UnaryOperator<String> change) {
        write(change.apply(read()));
    }
}
