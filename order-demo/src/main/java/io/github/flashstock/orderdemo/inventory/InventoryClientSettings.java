package io.github.flashstock.orderdemo.inventory;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the inventory service is reached: its discovery name, the explicit timeouts of every call, and the name and
 * key this service signs its reservation calls with (the inventory knows the key under that name).
 */
@ConfigurationProperties("orders.inventory")
public record InventoryClientSettings(@DefaultValue("inventory-service") String serviceId,
                                      @DefaultValue("1s") Duration connectTimeout,
                                      @DefaultValue("3s") Duration readTimeout,
                                      @DefaultValue("order-demo") String callerName,
                                      String signingKey) {
}
