package io.github.flashstock.clients;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * No answer: the connection was refused, cut off or timed out. The cause is the JDK's own exception (a
 * {@link java.net.ConnectException} when nothing listens), so a caller can tell a service that is not there from one
 * that died with the request in hand.
 */
public class ServiceUnreachable extends UncheckedIOException {

    public ServiceUnreachable(String request, IOException cause) {
        super(request + ": " + cause, cause);
    }
}
