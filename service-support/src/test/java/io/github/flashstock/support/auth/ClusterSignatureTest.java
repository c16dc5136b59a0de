package io.github.flashstock.support.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusterSignatureTest {

    private static final Instant NOW = Instant.parse("2026-12-07T12:00:00Z");
    private static final Duration WINDOW = Duration.ofSeconds(30);
    private final ClusterSignature cluster = ClusterSignature.of("x.cluster.key", "the-cluster-key-of-this-test-0123456789");
    private final ClusterSignature stranger = ClusterSignature.of("x.cluster.key", "a-key-the-cluster-never-had-0123456789");

    private java.util.Optional<String> verify(Map<String, String> h, String path, String me, Instant at) {
        return cluster.verifyRequest("GET", path, h.get(ClusterSignature.TIMESTAMP), h.get(ClusterSignature.NONCE),
                h.get(ClusterSignature.TARGET), h.get(ClusterSignature.SIGNATURE), me::equals, at, WINDOW);
    }

    @Test
    void aPeersRequestToThisInstanceIsAccepted() {
        Map<String, String> headers = cluster.signRequest("GET", "/admin/console/instance", "10.0.0.2:8081", NOW);

        assertThat(verify(headers, "/admin/console/instance", "10.0.0.2:8081", NOW.plusSeconds(1))).isEmpty();
    }

    @Test
    void aRequestSignedForOneInstanceIsRefusedByAnother() {
        Map<String, String> toStranger = cluster.signRequest("GET", "/admin/console/instance", "10.6.6.6:8081", NOW);

        assertThat(verify(toStranger, "/admin/console/instance", "10.0.0.2:8081", NOW))
                .hasValueSatisfying(why -> assertThat(why).contains("another instance"));
    }

    @Test
    void refusesAnotherKeyAnotherPathAndAnOldSignature() {
        Map<String, String> forged = stranger.signRequest("GET", "/admin/console/instance", "10.0.0.2:8081", NOW);
        Map<String, String> good = cluster.signRequest("GET", "/admin/console/instance", "10.0.0.2:8081", NOW);

        assertThat(verify(forged, "/admin/console/instance", "10.0.0.2:8081", NOW)).isPresent();
        assertThat(verify(good, "/admin/skus", "10.0.0.2:8081", NOW)).isPresent();
        assertThat(verify(good, "/admin/console/instance", "10.0.0.2:8081", NOW.plusSeconds(31))).isPresent();
        assertThat(ClusterSignature.of("x", "").verifyRequest("GET", "/p", "1", "n", "t", "s", t -> true, NOW, WINDOW))
                .hasValue("this instance has no cluster key");
    }

    @Test
    void onlyAPeerCanSignTheAnswerToThisNonce() {
        byte[] body = "{\"address\":\"10.0.0.2:8081\"}".getBytes(StandardCharsets.UTF_8);
        String signed = cluster.signResponse("n-1", body);

        assertThat(cluster.verifyResponse("n-1", body, signed)).isTrue();
        assertThat(cluster.verifyResponse("n-2", body, signed)).as("another request's answer").isFalse();
        assertThat(cluster.verifyResponse("n-1", "{}".getBytes(StandardCharsets.UTF_8), signed)).isFalse();
        assertThat(cluster.verifyResponse("n-1", body, stranger.signResponse("n-1", body))).isFalse();
        assertThat(cluster.verifyResponse("n-1", body, null)).isFalse();
    }
}
