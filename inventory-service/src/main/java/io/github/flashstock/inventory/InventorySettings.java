package io.github.flashstock.inventory;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings under {@code inventory}.
 *
 * @param fenceRetention     how long finished fence records and tombstones stay in Redis; must outlive every
 *                           retry of a global transaction, or a very late Try could slip past a tombstone
 * @param maxLines           most lines one reservation may have
 * @param maxQuantityPerLine most units one line may ask for
 * @param adminToken         bearer token that {@code /admin/**} requires
 */
@ConfigurationProperties("inventory")
public record InventorySettings(Duration fenceRetention, int maxLines, int maxQuantityPerLine, String adminToken) {
}
