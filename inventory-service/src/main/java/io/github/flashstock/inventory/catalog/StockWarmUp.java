package io.github.flashstock.inventory.catalog;

import io.github.flashstock.inventory.rebuild.EpochScript;
import io.github.flashstock.inventory.rebuild.SkuRebuilds;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * At start, hands to {@link SkuRebuilds} every SKU that MySQL knows and Redis cannot sell from as it is: missing
 * (Redis lost it, or never had it) or stale (Redis restarted or failed over while this instance was down). They
 * are built from MySQL in the background, so that buyers meet ready stock rather than the first Try finding them.
 */
@Component
class StockWarmUp implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(StockWarmUp.class);

    private final StockCatalog catalog;
    private final EpochScript epochs;
    private final SkuRebuilds rebuilds;

    StockWarmUp(StockCatalog catalog, EpochScript epochs, SkuRebuilds rebuilds) {
        this.catalog = catalog;
        this.epochs = epochs;
        this.rebuilds = rebuilds;
    }

    @Override
    public void run(ApplicationArguments args) {
        int handed = 0;
        for (String skuId : catalog.skuIds()) {
            if (epochs.run(skuId) != EpochScript.Code.CURRENT) {
                rebuilds.found(skuId);
                handed++;
            }
        }
        log.info("warm-up: {} SKU(s) missing or stale in Redis, handed to the rebuild", handed);
    }
}
