package io.github.flashstock.orderdemo.inventory;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/** How the inventory service is reached: its discovery name and the explicit timeouts of every call. */
@ConfigurationProperties("orders.inventory")
public record InventoryClientSettings(@DefaultValue("inventory-service") String serviceId,
                                      @DefaultValue("1s") Duration connectTimeout,
                                      @DefaultValue("3s") Duration readTimeout) {
}
