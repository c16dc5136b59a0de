package io.github.flashstock.inventory.rebuild;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code inventory.rebuild}: rebuilding SKUs whose Redis server restarted or failed over.
 *
 * @param poll               pause between two questions to the coordinator while waiting
 * @param drainTimeout       longest wait for the transactions open at the loss to end, per attempt
 * @param withoutCoordinator the wait when the coordinator cannot be asked at all (no console configured)
 */
@ConfigurationProperties("inventory.rebuild")
public record RebuildSettings(@DefaultValue("500ms") Duration poll, @DefaultValue("2m") Duration drainTimeout,
                               @DefaultValue("2m") Duration withoutCoordinator) {
}
