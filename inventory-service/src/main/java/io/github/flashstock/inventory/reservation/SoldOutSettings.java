package io.github.flashstock.inventory.reservation;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code inventory.sold-out}.
 *
 * @param refuseEarly whether a Try of a SKU that sold out is refused before it becomes a branch of its global
 *                    transaction ({@link SoldOutShortcut}; default true)
 */
@ConfigurationProperties("inventory.sold-out")
public record SoldOutSettings(@DefaultValue("true") boolean refuseEarly) {
}
