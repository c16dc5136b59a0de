package io.github.flashstock.sale;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The demo's sale (what {@code bin/demo --exit} runs), against the same services, checked by its own report. */
class FlashSaleIT {

    @Test
    void theDemoSaleSellsEveryHotUnitOnceAndBalances() {
        Services services = EndToEnd.services();
        SalePlan plan = SalePlan.demo("it-" + UUID.randomUUID().toString().substring(0, 6), 200, 2000);

        SaleReport report = new FlashSale(services.order().url(), services.inventory().url(), services.adminToken(),
                services.buyers(), System.out).run(plan);
        report.print(System.out);

        assertThat(report.orders()).isEqualTo(2000);
        assertThat(report.errors()).isZero();
        assertThat(report.oversold()).isZero();
        assertThat(report.balanced()).isTrue();
        SaleReport.SkuResult hot = report.skus().get(0);
        assertThat(hot.stock().sold()).as("demand exceeds supply: the hot SKU sells out").isEqualTo(200);
        assertThat(report.refusedByReason()).containsKey("insufficient-stock");
    }
}
