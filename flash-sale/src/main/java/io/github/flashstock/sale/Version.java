package io.github.flashstock.sale;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The project version this module was built with, which names the services' jars. */
final class Version {

    static final String PROJECT = read();

    private Version() {
    }

    private static String read() {
        try (InputStream in = Version.class.getResourceAsStream("/flash-sale.properties")) {
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException | NullPointerException e) {
            throw new UncheckedIOException(new IOException("flash-sale.properties missing from the build", e));
        }
    }
}
