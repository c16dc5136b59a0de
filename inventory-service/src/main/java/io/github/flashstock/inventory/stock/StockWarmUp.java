package io.github.flashstock.inventory.stock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/** At start, loads into Redis every SKU that MySQL knows and Redis lacks. */
@Component
class StockWarmUp implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(StockWarmUp.class);

    private final StockCatalog catalog;

    StockWarmUp(StockCatalog catalog) {
        this.catalog = catalog;
    }

    @Override
    public void run(ApplicationArguments args) {
        int loaded = catalog.warmUp();
        log.info("warm-up: {} SKU(s) loaded into Redis from MySQL", loaded);
    }
}
