package io.github.flashstock.orderdemo.inventory;

import java.net.http.HttpClient;
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
                .requestInterceptor(propagateGlobalTransaction());
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
