package io.github.flashstock.inventory.catalog.web;

import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.github.flashstock.inventory.WebSliceSettings;
import io.github.flashstock.inventory.stock.RedisStock;
import io.github.flashstock.inventory.stock.SkuStockRow;
import io.github.flashstock.inventory.catalog.StockCatalog;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

/** The stock view shows both stores' internals: the admin's, never a buyer's. */
@WebMvcTest(controllers = StockController.class, properties = "inventory.admin-token=" + StockViewAccessTest.TOKEN)
// the packaged defaults are the devstack's, which the service accepts in this profile only (DevstackCredentials)
@ActiveProfiles("devstack")
@Import(WebSliceSettings.class)
class StockViewAccessTest {

    static final String TOKEN = "stock-view-admin-token";

    @Autowired
    MockMvc mvc;
    @MockitoBean
    StockCatalog catalog;

    @Test
    void showsBothStoresToTheAdmin() throws Exception {
        given(catalog.view("hot-1")).willReturn(Optional.of(new StockCatalog.StockView("hot-1",
                new RedisStock("hot-1", 100, 60, 10, 30, 2, 1, List.of()),
                new SkuStockRow("hot-1", 100, 30, 0, 5, 0, 0, 2, 7))));

        mvc.perform(get("/skus/hot-1/stock").header("Authorization", "Bearer " + TOKEN))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.redis.reserved").value(10))
                .andExpect(jsonPath("$.mysql.allotment.available").value(5));
    }

    @Test
    void refusesItWithoutTheAdminToken() throws Exception {
        mvc.perform(get("/skus/hot-1/stock"))
                .andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:admin-token-required"));
        mvc.perform(get("/skus/hot-1/stock").header("Authorization", "Bearer not-the-admin-token"))
                .andExpect(status().isUnauthorized());
        // another spelling of the path never gets around the rule: the firewall refuses it outright
        mvc.perform(get("/skus/hot-1/stock;x=y"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:malformed-request"));

        verifyNoInteractions(catalog);
    }
}
