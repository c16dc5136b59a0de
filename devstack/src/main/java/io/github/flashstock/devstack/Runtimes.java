package io.github.flashstock.devstack;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Class paths of the Java servers (Seata TC, RocketMQ, Nacos), as resolved by Maven when the modules under
 * {@code devstack/runtimes/} were built and stored in their jars.
 */
final class Runtimes {

    private Runtimes() {
    }

    /**
     * The runtime module's own jar (or classes folder: it may hold a launcher, as the Nacos runtime does), then
     * every library it resolved.
     */
    static String classpath(String runtime) {
        String resource = "devstack/runtime/" + runtime + ".classpath";
        URL url = Runtimes.class.getClassLoader().getResource(resource);
        if (url == null) {
            throw new IllegalStateException(resource + " is not on the class path: build the devstack with"
                    + " Maven (./mvnw -pl devstack -am package) so that the runtime modules are resolved");
        }
        try (InputStream in = url.openStream()) {
            String libraries = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            return moduleLocation(url, resource) + File.pathSeparator + libraries;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code jar:file:/x/runtime.jar!/devstack/...} gives {@code /x/runtime.jar}; {@code file:/x/classes/devstack/...} gives {@code /x/classes}. */
    private static String moduleLocation(URL url, String resource) {
        String external = url.toExternalForm();
        try {
            if (external.startsWith("jar:")) {
                return Path.of(new URI(external.substring(4, external.indexOf("!/")))).toString();
            }
            String root = external.substring(0, external.length() - resource.length());
            return Path.of(new URI(root)).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the runtime module of " + url, e);
        }
    }
}
