package io.github.flashstock.inventory;

import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings under {@code inventory}.
 *
 * @param fenceRetention     how long finished fence records and tombstones stay in Redis; must outlive every
 *                           retry of a global transaction, or a very late Try could slip past a tombstone
 * @param maxLines           most lines one reservation may have
 * @param maxQuantityPerLine most units one line may ask for
 * @param adminToken         bearer token that {@code /admin/**} requires; it identifies admin {@code admin}
 * @param adminTokens        more bearer tokens, by the name of the admin each identifies (what the repairs' audit
 *                           records as the actor); from the environment, {@code INVENTORY_ADMINTOKENS_<NAME>}
 */
@ConfigurationProperties("inventory")
public record InventorySettings(Duration fenceRetention, int maxLines, int maxQuantityPerLine, String adminToken,
                                Map<String, String> adminTokens) {
}
