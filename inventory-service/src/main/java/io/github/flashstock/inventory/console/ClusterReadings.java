package io.github.flashstock.inventory.console;

import io.github.flashstock.inventory.reconciliation.ReconciliationSettings;
import io.github.flashstock.support.auth.ClusterSignature;
import io.github.flashstock.support.web.LocalAddresses;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sale as a whole: every inventory instance registered beside this one (in Nacos; without a registry, this one
 * alone), each read through its own {@code GET /admin/console/instance}, plus what the registry lists of both services.
 * A peer is asked with the cluster key ({@link ClusterSignature}), never with the operator's credentials, and its
 * answer counts only when signed with that key over this request: an address registered under the service's name by
 * anyone else is shown as not verified, and learns nothing it could use. Each answer is read up to
 * {@value #MAX_BODY} bytes, and the whole read of all peers ends within {@link #PEER_TIMEOUT}: a peer that answers
 * slowly, trickles, or sends too much is shown as such, never left out silently.
 */
@Component
public class ClusterReadings {

    static final Duration PEER_TIMEOUT = Duration.ofMillis(800);
    static final int MAX_BODY = 256 * 1024;
    static final String ORDER_SERVICE = "order-demo";
    static final String READING = "/admin/console/instance";

    private final InstanceReadings self;
    private final ObjectProvider<DiscoveryClient> discovery;
    private final JsonMapper json;
    private final String service;
    private final String seataConsole;
    private final ClusterSignature cluster;
    private final LocalAddresses local;
    private final Clock clock;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(PEER_TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER).build();

    ClusterReadings(InstanceReadings self, ObjectProvider<DiscoveryClient> discovery, JsonMapper json,
                    Environment environment, ReconciliationSettings reconciliation, ClusterSignature cluster,
                    Clock clock) {
        this.self = self;
        this.discovery = discovery;
        this.json = json;
        this.service = environment.getRequiredProperty("spring.application.name");
        this.seataConsole = reconciliation.seataConsole() == null ? null : reconciliation.seataConsole().url();
        this.cluster = cluster;
        this.local = new LocalAddresses(environment);
        this.clock = clock;
    }

    /**
     * @param instances    every inventory instance: its address, whether it is the one answering, its reading or why
     *                     there is none
     * @param registered   the instances of each service the registry lists ({@code host:port}); empty without one
     * @param seataConsole the TC's console, for the page to link to; null when not configured
     */
    public record Overview(long atMillis, List<Member> instances, Map<String, List<String>> registered,
                           String seataConsole) {
    }

    /**
     * @param verified whether the reading is this instance's own or was signed by a peer with the cluster key
     */
    public record Member(String address, boolean self, boolean verified, JsonNode reading, String error) {
    }

    /** Reads every instance, within {@link #PEER_TIMEOUT} in all. */
    public Overview read() {
        Map<String, List<String>> registered = new LinkedHashMap<>();
        registered.put(service, listed(service));
        registered.put(ORDER_SERVICE, listed(ORDER_SERVICE));
        List<String> peers = new ArrayList<>(registered.get(service));
        String me = peers.stream().filter(local::isThisServer).findFirst().orElse(self.address());
        peers.remove(me);
        Map<String, CompletableFuture<Member>> asked = new LinkedHashMap<>();
        peers.forEach(p -> asked.put(p, ask(p).completeOnTimeout(
                new Member(p, false, false, null, "no answer within " + PEER_TIMEOUT.toMillis() + " ms"),
                PEER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)));
        List<Member> members = new ArrayList<>();
        members.add(new Member(me, true, true, json.valueToTree(self.read()), null));
        asked.values().forEach(f -> members.add(f.join()));
        members.sort((a, b) -> a.address().compareTo(b.address()));
        return new Overview(System.currentTimeMillis(), members, registered, seataConsole);
    }

    private List<String> listed(String name) {
        DiscoveryClient client = discovery.getIfAvailable();
        if (client == null) {
            return List.of();
        }
        try {
            List<String> found = new ArrayList<>();
            for (ServiceInstance i : client.getInstances(name)) {
                found.add(i.getHost() + ":" + i.getPort());
            }
            found.sort(null);
            return found;
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    private CompletableFuture<Member> ask(String peer) {
        if (!cluster.configured()) {
            return CompletableFuture.completedFuture(new Member(peer, false, false, null,
                    "not verified: this instance has no cluster key (inventory.cluster.key), so it asks no peer"));
        }
        Map<String, String> signed = cluster.signRequest("GET", READING, peer, clock.instant());
        HttpRequest.Builder request;
        try {
            request = HttpRequest.newBuilder(URI.create("http://" + peer + READING)).timeout(PEER_TIMEOUT).GET();
        } catch (IllegalArgumentException e) {
            return CompletableFuture.completedFuture(new Member(peer, false, false, null,
                    "not verified: not an address (" + e.getMessage() + ")"));
        }
        signed.forEach(request::header);
        String nonce = signed.get(ClusterSignature.NONCE);
        return http.sendAsync(request.build(), r -> new AtMost(MAX_BODY))
                .thenApply(r -> answer(peer, nonce, r))
                .exceptionally(e -> new Member(peer, false, false, null, "no answer: " + rootMessage(e)));
    }

    private Member answer(String peer, String nonce, HttpResponse<byte[]> response) {
        if (!cluster.verifyResponse(nonce, response.body(),
                response.headers().firstValue(ClusterSignature.SIGNATURE).orElse(null))) {
            return new Member(peer, false, false, null, "not verified: answered " + response.statusCode()
                    + " without the cluster's signature (not an instance of " + service + "?)");
        }
        if (response.statusCode() != 200) {
            return new Member(peer, false, true, null, "answered " + response.statusCode());
        }
        try {
            return new Member(peer, false, true, json.readTree(response.body()), null);
        } catch (RuntimeException e) {
            return new Member(peer, false, true, null, "answered with a reading that is not JSON");
        }
    }

    /** Collects a body of at most {@code max} bytes; a longer one fails the read, which stops at that byte. */
    static final class AtMost implements HttpResponse.BodySubscriber<byte[]> {

        private final int max;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private Flow.Subscription subscription;

        AtMost(int max) {
            this.max = max;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            for (ByteBuffer b : buffers) {
                if (body.size() + b.remaining() > max) {
                    subscription.cancel();
                    result.completeExceptionally(new IOException("the answer is longer than " + max + " bytes"));
                    return;
                }
                byte[] bytes = new byte[b.remaining()];
                b.get(bytes);
                body.writeBytes(bytes);
            }
        }

        @Override
        public void onError(Throwable e) {
            result.completeExceptionally(e);
        }

        @Override
        public void onComplete() {
            result.complete(body.toByteArray());
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : " " + t.getMessage());
    }
}
