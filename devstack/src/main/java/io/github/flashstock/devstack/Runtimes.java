package io.github.flashstock.devstack;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Class paths of the Java servers (Seata TC, RocketMQ), as resolved by Maven when the modules under
 * {@code devstack/runtimes/} were built and stored in their jars.
 */
final class Runtimes {

    private Runtimes() {
    }

    static String classpath(String runtime) {
        String resource = "devstack/runtime/" + runtime + ".classpath";
        try (InputStream in = Runtimes.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is not on the class path: build the devstack with"
                        + " Maven (./mvnw -pl devstack -am package) so that the runtime modules are resolved");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
