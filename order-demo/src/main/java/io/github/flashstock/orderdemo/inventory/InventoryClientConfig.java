package io.github.flashstock.orderdemo.inventory;

import io.github.flashstock.support.auth.ServiceSignature;
import java.net.http.HttpClient;
import java.time.Clock;
import org.apache.seata.core.context.RootContext;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.client.loadbalancer.LoadBalanced;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(InventoryClientSettings.class)
class InventoryClientConfig {

    /** Resolves {@code http://inventory-service/...} through Spring Cloud LoadBalancer (Nacos or simple discovery). */
    @Bean
    @LoadBalanced
    RestClient.Builder inventoryRestClientBuilder(InventoryClientSettings settings) {
        HttpClient http = HttpClient.newBuilder()
                .connectTimeout(settings.connectTimeout())
                .version(HttpClient.Version.HTTP_1_1)
                .build();
        JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory(http);
        requests.setReadTimeout(settings.readTimeout());
        return RestClient.builder()
                .requestFactory(requests)
                .requestInterceptor(propagateGlobalTransaction())
                .requestInterceptor(sign(settings.callerName(),
                        ServiceSignature.key("orders.inventory.signing-key", settings.signingKey()), Clock.systemUTC()));
    }

    /**
     * Every call carries this service's signature over the exact request, its XID included (so after
     * {@link #propagateGlobalTransaction()}): the inventory service reserves stock only for services it knows.
     */
    static ClientHttpRequestInterceptor sign(String caller, byte[] key, Clock clock) {
        return (request, body, execution) -> {
            ServiceSignature.sign(caller, key, request.getMethod().name(), request.getURI().getRawPath(),
                    request.getHeaders().getFirst(RootContext.KEY_XID), body, clock.instant())
                    .writeTo(request.getHeaders()::set);
            return execution.execute(request, body);
        };
    }

    /** The XID of the global transaction bound to this thread travels in header {@code TX_XID}. */
    static ClientHttpRequestInterceptor propagateGlobalTransaction() {
        return (request, body, execution) -> {
            String xid = RootContext.getXID();
            if (xid != null) {
                request.getHeaders().set(RootContext.KEY_XID, xid);
            }
            return execution.execute(request, body);
        };
    }
}
