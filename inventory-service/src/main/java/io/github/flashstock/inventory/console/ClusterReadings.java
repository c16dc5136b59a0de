package io.github.flashstock.inventory.console;

import io.github.flashstock.inventory.reconciliation.ReconciliationSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sale as a whole: every inventory instance registered beside this one (in Nacos; without a registry, this one
 * alone), each read through its own {@code GET /admin/console/instance} with the caller's credentials, plus what
 * the registry lists of both services. An instance that does not answer within {@link #PEER_TIMEOUT} is shown as
 * such, never left out silently.
 */
@Component
public class ClusterReadings {

    static final Duration PEER_TIMEOUT = Duration.ofMillis(800);
    static final String ORDER_SERVICE = "order-demo";

    private final InstanceReadings self;
    private final ObjectProvider<DiscoveryClient> discovery;
    private final JsonMapper json;
    private final String service;
    private final String seataConsole;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(PEER_TIMEOUT).build();

    ClusterReadings(InstanceReadings self, ObjectProvider<DiscoveryClient> discovery, JsonMapper json,
                    Environment environment, ReconciliationSettings reconciliation) {
        this.self = self;
        this.discovery = discovery;
        this.json = json;
        this.service = environment.getRequiredProperty("spring.application.name");
        this.seataConsole = reconciliation.seataConsole() == null ? null : reconciliation.seataConsole().url();
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

    public record Member(String address, boolean self, JsonNode reading, String error) {
    }

    /** Reads every instance; {@code authorization} is the caller's header, passed on to the other instances. */
    public Overview read(String authorization) {
        Map<String, List<String>> registered = new LinkedHashMap<>();
        registered.put(service, listed(service));
        registered.put(ORDER_SERVICE, listed(ORDER_SERVICE));
        List<String> peers = new ArrayList<>(registered.get(service));
        String me = peers.stream().filter(this::isSelf).findFirst().orElse(self.address());
        peers.remove(me);
        List<CompletableFuture<Member>> asked = peers.stream().map(p -> ask(p, authorization)).toList();
        List<Member> members = new ArrayList<>();
        members.add(new Member(me, true, json.valueToTree(self.read()), null));
        asked.forEach(f -> members.add(f.join()));
        members.sort((a, b) -> a.address().compareTo(b.address()));
        return new Overview(System.currentTimeMillis(), members, registered, seataConsole);
    }

    /**
     * Whether a registered {@code host:port} is this instance: its port, on an address of this machine (the registry
     * may list the machine's own address where this instance calls itself 127.0.0.1).
     */
    private boolean isSelf(String address) {
        String mine = self.address();
        String port = mine.substring(mine.lastIndexOf(':') + 1);
        int colon = address.lastIndexOf(':');
        if (colon < 0 || !address.substring(colon + 1).equals(port)) {
            return false;
        }
        try {
            InetAddress host = InetAddress.getByName(address.substring(0, colon));
            return host.isLoopbackAddress() || host.isAnyLocalAddress() || NetworkInterface.getByInetAddress(host) != null;
        } catch (IOException e) {
            return false;
        }
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

    private CompletableFuture<Member> ask(String peer, String authorization) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://" + peer + "/admin/console/instance"))
                .timeout(PEER_TIMEOUT).GET();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString())
                .thenApply(r -> r.statusCode() == 200
                        ? new Member(peer, false, json.readTree(r.body()), null)
                        : new Member(peer, false, null, "answered " + r.statusCode()))
                .exceptionally(e -> new Member(peer, false, null, "no answer: " + rootMessage(e)));
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : " " + t.getMessage());
    }
}
