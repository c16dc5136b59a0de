package io.github.flashstock.inventory.reconciliation.web;

import static org.hamcrest.Matchers.contains;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.baomidou.mybatisplus.extension.plugins.pagination.Page;
import io.github.flashstock.inventory.WebSliceSettings;
import io.github.flashstock.inventory.reconciliation.Reconciler;
import io.github.flashstock.inventory.stock.AuditEntry;
import io.github.flashstock.inventory.reconciliation.Repairs;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

/**
 * A SKU's repair audit a page at a time: the entries under the table's column names, and a 400 naming a bad
 * {@code page} or {@code size}.
 */
@WebMvcTest(controllers = ReconciliationController.class, properties = "inventory.admin-token=" + AuditListingTest.TOKEN)
// the packaged defaults are the devstack's, which the service accepts in this profile only (DevstackCredentials)
@ActiveProfiles("devstack")
@Import(WebSliceSettings.class)
class AuditListingTest {

    static final String TOKEN = "audit-listing-admin-token";

    @Autowired
    MockMvc mvc;
    @MockitoBean
    Repairs repairs;
    @MockitoBean
    Reconciler reconciler;

    @Test
    void answersThePageAskedForUnderTheColumnNames() throws Exception {
        AuditEntry reload = new AuditEntry();
        reload.setId(7L);
        reload.setAction("RELOAD_SKU");
        reload.setSkuId("hot-1");
        reload.setDetail("reloaded");
        reload.setActor("alice");
        reload.setCreatedAt(Instant.parse("2026-12-03T10:00:00Z"));
        Page<AuditEntry> page = new Page<>(3, 1, 4);
        page.setRecords(List.of(reload));
        given(repairs.auditOf("hot-1", 3, 1)).willReturn(page);

        mvc.perform(get("/admin/reconciliation/skus/hot-1/audit?page=3&size=1")
                        .header("Authorization", "Bearer " + TOKEN))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.page").value(3))
                .andExpect(jsonPath("$.size").value(1))
                .andExpect(jsonPath("$.total").value(4))
                .andExpect(jsonPath("$.items[0].action").value("RELOAD_SKU"))
                .andExpect(jsonPath("$.items[0].sku_id").value("hot-1"))
                .andExpect(jsonPath("$.items[0].actor").value("alice"))
                .andExpect(jsonPath("$.items[0].created_at").value("2026-12-03T10:00:00Z"))
                .andExpect(jsonPath("$.items[0].xid").doesNotExist())
                .andExpect(jsonPath("$.items[0].reservation_key").doesNotExist())
                .andExpect(jsonPath("$.items[0].id").doesNotExist());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "page=0     | page: must be 1 or more",
            "size=0     | size: must be 1 to 500",
            "size=1000  | size: must be 1 to 500",
            "page=first | page: must be a whole number"})
    void refusesABadPageOrSizeNamingItAndReadsNothing(String query, String error) throws Exception {
        mvc.perform(get("/admin/reconciliation/skus/hot-1/audit?" + query).header("Authorization", "Bearer " + TOKEN))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:invalid-request"))
                .andExpect(jsonPath("$.errors", contains(error)));

        verifyNoInteractions(repairs);
    }
}
