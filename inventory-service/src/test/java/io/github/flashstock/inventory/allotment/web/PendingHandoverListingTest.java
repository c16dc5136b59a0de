package io.github.flashstock.inventory.allotment.web;

import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.baomidou.mybatisplus.extension.plugins.pagination.Page;
import io.github.flashstock.inventory.WebSliceSettings;
import io.github.flashstock.inventory.allotment.HandoverRow;
import io.github.flashstock.inventory.allotment.StockHandover;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

/** Every SKU's pending handovers, a page at a time, for the admin only. */
@WebMvcTest(controllers = PendingHandoverController.class,
        properties = "inventory.admin-token=" + PendingHandoverListingTest.TOKEN)
@ActiveProfiles("devstack")
@Import(WebSliceSettings.class)
class PendingHandoverListingTest {

    static final String TOKEN = "pending-handovers-admin-token";

    @Autowired
    MockMvc mvc;
    @MockitoBean
    StockHandover handover;

    @Test
    void answersThePendingOnesOldestFirstAPageAtATime() throws Exception {
        Page<HandoverRow> page = new Page<>(1, 50, 1);
        page.setRecords(List.of(new HandoverRow("op-1", "hot-1", "TO_REDIS", 5, null, "PENDING", "rebalance",
                Instant.parse("2026-12-03T10:00:00Z"), Instant.parse("2026-12-03T10:00:00Z"))));
        given(handover.pending(1, 50)).willReturn(page);

        mvc.perform(get("/admin/handovers/pending").header("Authorization", "Bearer " + TOKEN))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.total").value(1))
                .andExpect(jsonPath("$.items[0].operationId").value("op-1"))
                .andExpect(jsonPath("$.items[0].state").value("PENDING"));
    }

    @Test
    void refusesBadPagingAndCallersWithoutTheToken() throws Exception {
        mvc.perform(get("/admin/handovers/pending?size=501").header("Authorization", "Bearer " + TOKEN))
                .andExpect(status().isBadRequest());
        mvc.perform(get("/admin/handovers/pending")).andExpect(status().isUnauthorized());
        verifyNoInteractions(handover);
    }
}
