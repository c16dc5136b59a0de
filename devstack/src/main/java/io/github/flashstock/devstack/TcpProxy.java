package io.github.flashstock.devstack;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on 127.0.0.1 in front of one of the stack's servers, for tests of a network that fails between one
 * client and that server while every other client still reaches it (a split view): point the client at
 * {@link #port()}, then {@link #cut()} and {@link #restore()}. Cut, it closes every connection it carries and stops
 * listening, so the client sees its connections end and new ones refused, as when the server's host drops out of
 * its network; restored, it listens on the same port again and forwards as before. It runs in the JVM that made it,
 * one thread per direction of each connection, and {@link #close()} ends all of them.
 *
 * <p>While cut the port stays the proxy's: a second socket, bound to it but never listening, holds it from start to
 * close. Without it, on a shared machine another process's {@code bind(0)} could be given the free port, or a
 * client's own connect attempt could be given it as its source port and connect to itself (a TCP simultaneous
 * open); either way a connection made while cut would succeed, and {@link #restore()} could not listen again. A
 * connection attempt to a bound port with no listener is refused all the same, and Linux hands neither
 * {@code bind(0)} nor a connect's source port a port some socket is bound to. Both sockets set
 * {@code SO_REUSEADDR}, which lets them share the port as long as only one of them listens.
 */
public final class TcpProxy implements AutoCloseable {

    private final InetSocketAddress target;
    private final int port;
    private final Socket hold;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger threads = new AtomicInteger();
    private volatile ServerSocket listener;
    private Thread acceptor;
    private volatile boolean closed;

    private TcpProxy(InetSocketAddress target, Socket hold) {
        this.target = target;
        this.hold = hold;
        this.port = hold.getLocalPort();
        try {
            this.listener = listen(port);
        } catch (RuntimeException e) {
            quietly(hold);
            throw e;
        }
        acceptor = accept(listener);
    }

    /** A proxy to {@code targetHost:targetPort} on a free port of 127.0.0.1 ({@code listenPort} 0), or the given one. */
    public static TcpProxy start(String targetHost, int targetPort, int listenPort) {
        return new TcpProxy(new InetSocketAddress(targetHost, targetPort), holdPort(listenPort));
    }

    /** The port clients connect to. */
    public int port() {
        return port;
    }

    /** Whether the proxy forwards now (not cut). */
    public boolean forwarding() {
        return listener != null;
    }

    /**
     * Closes every connection it carries and stops listening: connections end, new ones are refused from the moment
     * this returns. Closing the listener is not enough for that: while the accepting thread is blocked in the
     * kernel's {@code accept} it holds the socket, and the JDK closes it for good only once that thread has woken
     * up, so a connection made meanwhile would still be taken into the backlog (CI saw it: a connect right after
     * the cut succeeded). So this waits for that thread to end.
     */
    public synchronized void cut() {
        ServerSocket l = listener;
        listener = null;
        if (l != null) {
            quietly(l);
            awaitEnd(acceptor);
        }
        open.forEach(TcpProxy::quietly);
        open.clear();
    }

    private static void awaitEnd(Thread thread) {
        try {
            thread.join(Duration.ofSeconds(10).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (thread.isAlive()) {
            throw new IllegalStateException(thread.getName() + " still accepting 10 s after its listener closed");
        }
    }

    /** Listens on the same port again: new connections are forwarded. */
    public synchronized void restore() {
        if (listener == null && !closed) {
            listener = listen(port);
            acceptor = accept(listener);
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        cut();
        quietly(hold);
    }

    /**
     * A socket bound to 127.0.0.1:{@code port} (0: a free one) that never listens or connects: it keeps the port while
     * cut. It is bound first; a listener may join it on the port afterwards, not the other way round.
     */
    private static Socket holdPort(int port) {
        Socket s = new Socket();
        try {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return s;
        } catch (IOException e) {
            quietly(s);
            throw new UncheckedIOException("cannot hold 127.0.0.1:" + port + " for the TCP proxy", e);
        }
    }

    private static ServerSocket listen(int port) {
        try {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return s;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on 127.0.0.1:" + port + " for the TCP proxy", e);
        }
    }

    private Thread accept(ServerSocket l) {
        return daemon("tcp-proxy-" + port + "-accept", () -> {
            while (!l.isClosed()) {
                Socket client;
                try {
                    client = l.accept();
                } catch (IOException e) {
                    return; // cut or closed
                }
                connect(client);
            }
        });
    }

    private void connect(Socket client) {
        Socket server = new Socket();
        try {
            server.connect(target, 2_000);
            client.setTcpNoDelay(true);
            server.setTcpNoDelay(true);
        } catch (IOException e) {
            quietly(client);
            quietly(server);
            return;
        }
        open.add(client);
        open.add(server);
        if (listener == null) { // cut meanwhile
            quietly(client);
            quietly(server);
            return;
        }
        int n = threads.incrementAndGet();
        daemon("tcp-proxy-" + port + "-up-" + n, () -> pump(client, server));
        daemon("tcp-proxy-" + port + "-down-" + n, () -> pump(server, client));
    }

    /** Copies one direction until either side ends, then closes both. */
    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (SocketException e) {
            // the other direction, or cut(), closed the sockets
        } catch (IOException e) {
            // the connection failed: end it
        } finally {
            quietly(from);
            quietly(to);
            open.remove(from);
            open.remove(to);
        }
    }

    private static Thread daemon(String name, Runnable work) {
        Thread t = new Thread(work, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void quietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
