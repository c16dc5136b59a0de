package io.github.flashstock.floor;

import java.net.http.HttpClient;
import java.time.Duration;
import javax.sql.DataSource;
import org.apache.seata.common.Constants;
import org.apache.seata.common.holder.ObjectHolder;
import org.apache.seata.core.context.RootContext;
import org.apache.seata.rm.fence.SpringFenceConfig;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.web.client.RestClient;

// Seata 2.5.0's fence and saga auto-configurations cannot load on Boot 4: excluded, the fence is configured below
// (as order-demo does)
@SpringBootApplication(excludeName = {
        "org.apache.seata.spring.boot.autoconfigure.SeataSpringFenceAutoConfiguration",
        "org.apache.seata.spring.boot.autoconfigure.SeataSagaAutoConfiguration"})
public class FloorApplication {

    public static void main(String[] args) {
        SpringApplication.run(FloorApplication.class, args);
    }

    /** Seata's TCC fence on the database of {@code spring.datasource}, as order-demo sets it up. */
    @Bean
    @ConfigurationProperties("seata.tcc.fence")
    SpringFenceConfig springFenceConfig(DataSource dataSource, PlatformTransactionManager transactions) {
        SpringFenceConfig config = new SpringFenceConfig(dataSource, transactions);
        ObjectHolder.INSTANCE.setObject(Constants.BEAN_NAME_SPRING_FENCE_CONFIG, config);
        return config;
    }

    /** The front's client for the back: HTTP/1.1, kept-alive connections, the XID in {@code TX_XID}. */
    @Bean
    RestClient backClient(@Value("${floor.back-url:http://127.0.0.1:8092}") String backUrl) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1))
                .version(HttpClient.Version.HTTP_1_1).build();
        JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory(http);
        requests.setReadTimeout(Duration.ofSeconds(3));
        return RestClient.builder().baseUrl(backUrl).requestFactory(requests)
                .requestInterceptor((request, body, execution) -> {
                    String xid = RootContext.getXID();
                    if (xid != null) {
                        request.getHeaders().set(RootContext.KEY_XID, xid);
                    }
                    return execution.execute(request, body);
                })
                .build();
    }
}
