package io.github.flashstock.inventory.reconciliation.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.github.flashstock.inventory.WebSliceSettings;
import io.github.flashstock.inventory.reconciliation.Reconciler;
import io.github.flashstock.inventory.reconciliation.Repairs;
import io.github.flashstock.support.web.AdminTokens;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.MediaType;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

/** What a repair's audit records as its actor: the admin the token names, and a bounded, checked note. */
@WebMvcTest(controllers = ReconciliationController.class, properties = {
        "inventory.admin-token=" + RepairActorTest.ADMIN_TOKEN,
        "inventory.admin-tokens.alice=" + RepairActorTest.ALICE_TOKEN,
        "inventory.admin-tokens.a-name-of-the-longest-length-032=" + RepairActorTest.LONGEST_TOKEN})
// the packaged defaults are the devstack's, which the service accepts in this profile only (DevstackCredentials)
@ActiveProfiles("devstack")
@Import(WebSliceSettings.class)
class RepairActorTest {

    static final String ADMIN_TOKEN = "repair-actor-admin-token";
    static final String ALICE_TOKEN = "repair-actor-alice-token";
    static final String LONGEST_TOKEN = "repair-actor-longest-token";
    private static final String RELEASE = "{\"skuId\":\"sku-1\",\"xid\":\"127.0.0.1:8091:42\",\"reservationId\":\"r-1\"}";

    @Autowired
    MockMvc mvc;
    @MockitoBean
    Repairs repairs;
    @MockitoBean
    Reconciler reconciler;

    @BeforeEach
    void repairsApply() {
        given(repairs.reloadSku(anyString(), anyString())).willReturn(new Repairs.Result(true, "reloaded"));
        given(repairs.releaseReservation(anyString(), anyString(), anyString(), anyString()))
                .willReturn(new Repairs.Result(true, "released"));
    }

    private static MockHttpServletRequestBuilder rebuild(String token) {
        return post("/admin/reconciliation/skus/sku-1/reload").header("Authorization", "Bearer " + token);
    }

    private ResultActions refused(MockHttpServletRequestBuilder request) throws Exception {
        return mvc.perform(request).andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:invalid-request"));
    }

    @Test
    void recordsTheAdminTheServicesTokenNames() throws Exception {
        mvc.perform(rebuild(ADMIN_TOKEN)).andExpect(status().isOk());

        verify(repairs).reloadSku("sku-1", "admin");
    }

    @Test
    void recordsTheHolderOfANamedToken() throws Exception {
        mvc.perform(post("/admin/reconciliation/reservations/release").header("Authorization", "Bearer " + ALICE_TOKEN)
                .contentType(MediaType.APPLICATION_JSON).content(RELEASE)).andExpect(status().isOk());

        verify(repairs).releaseReservation("sku-1", "127.0.0.1:8091:42", "r-1", "alice");
    }

    @Test
    void addsTheCallersNoteInParentheses() throws Exception {
        mvc.perform(rebuild(ALICE_TOKEN).header("X-Audit-Note", "OPS-1234, on call")).andExpect(status().isOk());
        mvc.perform(post("/admin/reconciliation/reservations/release").header("Authorization", "Bearer " + ADMIN_TOKEN)
                .header("X-Audit-Note", "alice@ops #42").contentType(MediaType.APPLICATION_JSON).content(RELEASE))
                .andExpect(status().isOk());

        verify(repairs).reloadSku("sku-1", "alice (OPS-1234, on call)");
        verify(repairs).releaseReservation("sku-1", "127.0.0.1:8091:42", "r-1", "admin (alice@ops #42)");
    }

    @Test
    void fitsTheLongestNameAndNoteIntoTheColumn() throws Exception {
        String longest = "n".repeat(RepairActor.NOTE_MAX);

        mvc.perform(rebuild(LONGEST_TOKEN).header("X-Audit-Note", longest)).andExpect(status().isOk());

        String actor = "a-name-of-the-longest-length-032 (" + longest + ")";
        verify(repairs).reloadSku("sku-1", actor);
        assertThat(actor).hasSize(RepairActor.COLUMN);
    }

    @Test
    void refusesANoteLongerThanTheColumnLeavesAndRepairsNothing() throws Exception {
        refused(rebuild(ADMIN_TOKEN).header("X-Audit-Note", "n".repeat(RepairActor.NOTE_MAX + 1)))
                .andExpect(jsonPath("$.errors[0]").value(RepairActor.NOTE_RULE));

        verifyNoInteractions(repairs);
    }

    @Test
    void refusesANoteWithCharactersAnAuditShouldNotHold() throws Exception {
        refused(rebuild(ADMIN_TOKEN).header("X-Audit-Note", "<script>"));
        refused(rebuild(ADMIN_TOKEN).header("X-Audit-Note", "tab\there"));
        refused(rebuild(ADMIN_TOKEN).header("X-Audit-Note", "quote\"d"));
        refused(rebuild(ADMIN_TOKEN).header("X-Audit-Note", "Jos\u00e9"));
        refused(rebuild(ADMIN_TOKEN).header("X-Audit-Note", " leading space"));
        refused(rebuild(ADMIN_TOKEN).header("X-Audit-Note", ""));

        verifyNoInteractions(repairs);
    }

    @Test
    void refusesTheRetiredActorHeaderRatherThanIgnoreIt() throws Exception {
        refused(rebuild(ADMIN_TOKEN).header("X-Actor", "bob"))
                .andExpect(jsonPath("$.errors[0]").value(RepairActor.RETIRED_RULE));

        verifyNoInteractions(repairs);
    }

    @Test
    void refusesARepairWithoutAnAdminToken() throws Exception {
        mvc.perform(post("/admin/reconciliation/skus/sku-1/reload").header("X-Audit-Note", "alice"))
                .andExpect(status().isUnauthorized());

        verifyNoInteractions(repairs);
    }

    @Test
    void theColumnIsTheOneTheSchemaDeclares() throws IOException {
        String schema = new ClassPathResource("sql/inventory.sql").getContentAsString(StandardCharsets.UTF_8);
        Matcher actor = java.util.regex.Pattern.compile("CREATE TABLE IF NOT EXISTS repair_audit \\([^;]*?\\n\\s*actor"
                + "\\s+VARCHAR\\((\\d+)\\)").matcher(schema);

        assertThat(actor.find()).as("repair_audit.actor in sql/inventory.sql").isTrue();
        assertThat(Integer.parseInt(actor.group(1))).isEqualTo(RepairActor.COLUMN);
        assertThat(AdminTokens.NAME_MAX + " (".length() + RepairActor.NOTE_MAX + ")".length())
                .isEqualTo(RepairActor.COLUMN);
    }
}
