package io.github.flashstock.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flashstock.devstack.junit.DevStackTest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The proxy in front of the stack's Redis: it forwards, a cut ends connections and refuses new ones, a restore forwards again. */
@DevStackTest(Component.REDIS)
class TcpProxyIT {

    @Test
    void forwardsUntilCutRefusesWhileCutAndForwardsAgainOnceRestored(Endpoints endpoints) throws Exception {
        try (TcpProxy proxy = TcpProxy.start(endpoints.redisHost(), endpoints.redisPort(), 0)) {
            assertThat(Resp.ping(proxy.port())).isTrue();
            try (Socket held = new Socket()) {
                held.connect(new InetSocketAddress("127.0.0.1", proxy.port()), 2_000);
                assertThat(ping(held)).isEqualTo("+PONG");

                proxy.cut();

                // the open connection ends, a new one is refused
                held.setSoTimeout(2_000);
                assertThat(held.getInputStream().read()).isEqualTo(-1);
                assertThatThrownBy(() -> new Socket("127.0.0.1", proxy.port()).close())
                        .isInstanceOf(ConnectException.class);
                assertThat(proxy.forwarding()).isFalse();
            }
            // Redis itself was never touched
            assertThat(Resp.ping(endpoints.redisPort())).isTrue();

            proxy.restore();

            assertThat(proxy.forwarding()).isTrue();
            assertThat(Resp.ping(proxy.port())).isTrue();
        }
    }

    /**
     * Cut with no connection ever made (so no closed connection lingers on the port), the port is still not free: a
     * plain bind to it fails, as the kernel's choice of a free port ({@code bind(0)}, a connect's source port) passes
     * it over. Restored, it listens there again.
     */
    @Test
    void keepsItsPortWhileCut(Endpoints endpoints) throws Exception {
        try (TcpProxy proxy = TcpProxy.start(endpoints.redisHost(), endpoints.redisPort(), 0)) {
            proxy.cut();
            try (ServerSocket other = new ServerSocket()) {
                other.setReuseAddress(false);
                assertThatThrownBy(() -> other.bind(new InetSocketAddress("127.0.0.1", proxy.port())))
                        .isInstanceOf(BindException.class);
            }
            assertThatThrownBy(() -> new Socket("127.0.0.1", proxy.port()).close()).isInstanceOf(ConnectException.class);

            proxy.restore();

            assertThat(Resp.ping(proxy.port())).isTrue();
        }
    }

    /**
     * A connection attempted the moment {@code cut()} returns is refused, every time: the JDK closes a listener
     * whose thread is blocked in {@code accept} only once that thread wakes up, and the kernel takes connections
     * into the backlog until then, so {@code cut()} returns only once that thread has ended.
     */
    @Test
    void refusesAConnectionMadeTheMomentItIsCut(Endpoints endpoints) throws Exception {
        try (TcpProxy proxy = TcpProxy.start(endpoints.redisHost(), endpoints.redisPort(), 0)) {
            for (int i = 0; i < 200; i++) {
                proxy.cut();
                assertThatThrownBy(() -> new Socket("127.0.0.1", proxy.port()).close()).as("attempt %d", i)
                        .isInstanceOf(ConnectException.class);
                proxy.restore();
            }
            assertThat(Resp.ping(proxy.port())).isTrue();
        }
    }

    private static String ping(Socket socket) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != '\r' && c >= 0; c = in.read()) {
            line.append((char) c);
        }
        in.read();
        return line.toString();
    }
}
