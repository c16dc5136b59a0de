package io.github.flashstock.inventory.catalog.web;

import static org.hamcrest.Matchers.contains;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.baomidou.mybatisplus.extension.plugins.pagination.Page;
import io.github.flashstock.inventory.WebSliceSettings;
import io.github.flashstock.inventory.catalog.StockCatalog;
import io.github.flashstock.inventory.stock.SegmentCounts;
import io.github.flashstock.inventory.stock.SkuStockRow;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

/** The SKUs a page at a time, by id, optionally by the start of their id; bad paging or prefix is a 400. */
@WebMvcTest(controllers = AdminController.class, properties = "inventory.admin-token=" + SkuListingTest.TOKEN)
@ActiveProfiles("devstack")
@Import(WebSliceSettings.class)
class SkuListingTest {

    static final String TOKEN = "sku-listing-admin-token";

    @Autowired
    MockMvc mvc;
    @MockitoBean
    StockCatalog catalog;
    @MockitoBean
    io.github.flashstock.inventory.catalog.SaleEnd saleEnd;
    @MockitoBean
    SegmentCounts segments;
    @MockitoBean
    io.github.flashstock.inventory.stock.AuditMapper audit;

    @Test
    void answersThePageWithMysqlsCountsAndTheTotal() throws Exception {
        Page<SkuStockRow> page = new Page<>(2, 1, 3);
        page.setRecords(List.of(new SkuStockRow("hot-2", 100, 30, 5, 10, 0, 2, 2, 7)));
        given(catalog.page("hot-", 2, 1)).willReturn(page);

        mvc.perform(get("/admin/skus?prefix=hot-&page=2&size=1").header("Authorization", "Bearer " + TOKEN))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.total").value(3))
                .andExpect(jsonPath("$.page").value(2))
                .andExpect(jsonPath("$.items[0].skuId").value("hot-2"))
                .andExpect(jsonPath("$.items[0].stocked").value(100))
                .andExpect(jsonPath("$.items[0].sold").value(30))
                .andExpect(jsonPath("$.items[0].reserved").value(5))
                .andExpect(jsonPath("$.items[0].available").value(65));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "size=0           | size: must be 1 to 500",
            "page=0           | page: must be 1 or more",
            "prefix=a%25      | prefix: 1 to 64 of the characters A-Z a-z 0-9 . _ -"})
    void refusesBadPagingOrPrefix(String query, String error) throws Exception {
        mvc.perform(get("/admin/skus?" + query).header("Authorization", "Bearer " + TOKEN))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors", contains(error)));
        verifyNoInteractions(catalog);
    }

    @Test
    void isForTheAdminOnly() throws Exception {
        mvc.perform(get("/admin/skus")).andExpect(status().isUnauthorized());
        verifyNoInteractions(catalog);
    }
}
