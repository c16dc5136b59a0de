package io.github.flashstock.inventory.allotment.web;

import static org.hamcrest.Matchers.contains;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.baomidou.mybatisplus.extension.plugins.pagination.Page;
import io.github.flashstock.inventory.WebSliceSettings;
import io.github.flashstock.inventory.allotment.HandoverRow;
import io.github.flashstock.inventory.allotment.StockHandover;
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

/** The handovers' audit trail a page at a time: the page asked for, and a 400 naming a bad {@code page} or {@code size}. */
@WebMvcTest(controllers = HandoverController.class, properties = "inventory.admin-token=" + HandoverListingTest.TOKEN)
// the packaged defaults are the devstack's, which the service accepts in this profile only (DevstackCredentials)
@ActiveProfiles("devstack")
@Import(WebSliceSettings.class)
class HandoverListingTest {

    static final String TOKEN = "handover-listing-admin-token";

    @Autowired
    MockMvc mvc;
    @MockitoBean
    StockHandover handover;
    @MockitoBean
    io.github.flashstock.inventory.stock.AuditMapper audit;

    @Test
    void answersThePageAskedForWithItsTotal() throws Exception {
        Page<HandoverRow> page = new Page<>(2, 1, 3);
        page.setRecords(List.of(new HandoverRow("op-2", "hot-1", "TO_MYSQL", 5, 5L, "DONE", "operator",
                Instant.parse("2026-12-03T10:00:00Z"), Instant.parse("2026-12-03T10:00:01Z"))));
        given(handover.history("hot-1", 2, 1)).willReturn(page);

        mvc.perform(get("/admin/skus/hot-1/handovers?page=2&size=1").header("Authorization", "Bearer " + TOKEN))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.page").value(2))
                .andExpect(jsonPath("$.size").value(1))
                .andExpect(jsonPath("$.total").value(3))
                .andExpect(jsonPath("$.items[0].operationId").value("op-2"))
                .andExpect(jsonPath("$.items[0].moved").value(5))
                .andExpect(jsonPath("$.items[0].createdAt").value("2026-12-03T10:00:00Z"));
    }

    @Test
    void pageOneOfFiftyUnlessAsked() throws Exception {
        given(handover.history("hot-1", 1, 50)).willReturn(new Page<>(1, 50, 0));

        mvc.perform(get("/admin/skus/hot-1/handovers").header("Authorization", "Bearer " + TOKEN))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.page").value(1))
                .andExpect(jsonPath("$.size").value(50))
                .andExpect(jsonPath("$.total").value(0))
                .andExpect(jsonPath("$.items").isEmpty());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "page=0           | page: must be 1 or more",
            "page=-1          | page: must be 1 or more",
            "size=0           | size: must be 1 to 500",
            "size=501         | size: must be 1 to 500",
            "page=abc         | page: must be a whole number",
            "size=2.5         | size: must be a whole number",
            "page=99999999999 | page: out of range",
            "limit=10         | limit: use page and size"})
    void refusesABadPageOrSizeNamingItAndReadsNothing(String query, String error) throws Exception {
        mvc.perform(get("/admin/skus/hot-1/handovers?" + query).header("Authorization", "Bearer " + TOKEN))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:invalid-request"))
                .andExpect(jsonPath("$.errors", contains(error)));

        verifyNoInteractions(handover);
    }

    @Test
    void refusesTheListingWithoutTheAdminToken() throws Exception {
        mvc.perform(get("/admin/skus/hot-1/handovers"))
                .andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:admin-token-required"));

        verifyNoInteractions(handover);
    }
}
