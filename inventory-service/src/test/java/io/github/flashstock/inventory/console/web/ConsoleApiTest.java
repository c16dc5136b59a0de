package io.github.flashstock.inventory.console.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.github.flashstock.inventory.WebSliceSettings;
import io.github.flashstock.inventory.catalog.StockCatalog;
import io.github.flashstock.inventory.console.ClusterReadings;
import io.github.flashstock.inventory.console.InstanceReading;
import io.github.flashstock.inventory.console.InstanceReadings;
import io.github.flashstock.inventory.console.SkuSettingsPublisher;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import io.github.flashstock.support.auth.ClusterSignature;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

/**
 * The console's API: the readings for the admin only, and a SKU's settings published only when the body is good and
 * the SKU known, with each way it can fail answered as its own problem.
 */
@WebMvcTest(controllers = ConsoleController.class, properties = "inventory.admin-token=" + ConsoleApiTest.TOKEN)
@ActiveProfiles("devstack")
@Import(WebSliceSettings.class)
class ConsoleApiTest {

    static final String TOKEN = "console-api-admin-token";

    @Autowired
    MockMvc mvc;
    @MockitoBean
    InstanceReadings instance;
    @MockitoBean
    ClusterReadings cluster;
    @MockitoBean
    SkuSettingsPublisher publisher;
    @MockitoBean
    StockCatalog catalog;
    @MockitoBean
    io.github.flashstock.inventory.stock.AuditMapper audit;

    @BeforeEach
    void aKnownSku() {
        given(catalog.view("hot-1")).willReturn(Optional.of(new StockCatalog.StockView("hot-1", null, null)));
        given(catalog.view("nope")).willReturn(Optional.empty());
    }

    @Test
    void answersThisInstancesReadings() throws Exception {
        given(instance.read()).willReturn(new InstanceReading("127.0.0.1:8081", 2_000, 1_000,
                Map.of("reserved", 7.0), Map.of("confirm", 5.0), Map.of("try", Map.of("p50", 1.5, "p99", 9.0)),
                new InstanceReading.Health("closed",
                        List.of(new io.github.flashstock.inventory.redis.RedisMemory.NodeMemory("127.0.0.1:16379",
                                900, 1_000, true)), "fsync", List.of(), 0L, 0L,
                        List.of(new InstanceReading.Coordinator("127.0.0.1:18091", true)), 1_900)));

        mvc.perform(get("/admin/console/instance").header("Authorization", "Bearer " + TOKEN))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.tries.reserved").value(7.0))
                .andExpect(jsonPath("$.latencyMillis.try.p99").value(9.0))
                .andExpect(jsonPath("$.health.coordinators[0].reachable").value(true))
                .andExpect(jsonPath("$.health.redisMemory[0].maxBytes").value(1_000))
                .andExpect(jsonPath("$.health.redisMemory[0].warning").value(true));
    }

    @Test
    void readsTheOtherInstancesWithoutTheCallersCredentials() throws Exception {
        given(cluster.read()).willReturn(new ClusterReadings.Overview(1, List.of(), Map.of(), null));

        mvc.perform(get("/admin/console/overview").header("Authorization", "Bearer " + TOKEN))
                .andExpect(status().isOk());

        verify(cluster).read();
    }

    /** The devstack profile's cluster key (application-devstack.yml), which this slice runs with. */
    private static final ClusterSignature CLUSTER = ClusterSignature.of("k",
            "devstack-inventory-cluster-key-not-a-secret");

    private ResultActions readAsPeer(ClusterSignature key, String target) throws Exception {
        MockHttpServletRequestBuilder request = get("/admin/console/instance");
        key.signRequest("GET", "/admin/console/instance", target, Instant.now()).forEach(request::header);
        return mvc.perform(request);
    }

    @Test
    void anotherInstanceReadsThisOneWithTheClusterKeyAndTheAnswerIsSigned() throws Exception {
        given(instance.read()).willReturn(new InstanceReading("127.0.0.1:8081", 2_000, 1_000, Map.of(), Map.of(),
                Map.of(), new InstanceReading.Health("closed", List.of(), "fsync", List.of(), 0L, 0L, List.of(),
                        1_900)));
        MockHttpServletRequestBuilder request = get("/admin/console/instance");
        Map<String, String> signed = CLUSTER.signRequest("GET", "/admin/console/instance", "127.0.0.1:8081",
                Instant.now());
        signed.forEach(request::header);

        MockHttpServletResponse answer = mvc.perform(request).andExpect(status().isOk()).andReturn().getResponse();

        assertThat(CLUSTER.verifyResponse(signed.get(ClusterSignature.NONCE), answer.getContentAsByteArray(),
                answer.getHeader(ClusterSignature.SIGNATURE))).isTrue();
    }

    @Test
    void refusesAPeerSignatureForAnotherAddressOrKeyAndLetsItNowhereElse() throws Exception {
        readAsPeer(CLUSTER, "10.9.9.9:8081").andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:unknown-peer"));
        readAsPeer(ClusterSignature.of("k", "a-key-no-instance-of-this-cluster-has"), "127.0.0.1:8081")
                .andExpect(status().isUnauthorized());
        // the cluster key opens the reading only: not the overview, not a change
        MockHttpServletRequestBuilder overview = get("/admin/console/overview");
        CLUSTER.signRequest("GET", "/admin/console/overview", "127.0.0.1:8081", Instant.now())
                .forEach(overview::header);
        mvc.perform(overview).andExpect(status().isUnauthorized());
        verifyNoInteractions(instance, cluster);
    }

    @Test
    void refusesEveryPathWithoutTheAdminToken() throws Exception {
        for (String path : List.of("/admin/console/instance", "/admin/console/overview")) {
            mvc.perform(get(path).header("Authorization", "Bearer wrong-" + TOKEN))
                    .andExpect(status().isUnauthorized());
        }
        mvc.perform(put("/admin/skus/hot-1/settings").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"segments\":4}"))
                .andExpect(status().isUnauthorized());
        verifyNoInteractions(instance, cluster, publisher);
    }

    @Test
    void publishesAGoodChangeAndSaysWhere() throws Exception {
        given(publisher.publish("hot-1", 4, "20%")).willReturn(new SkuSettingsPublisher.Result(
                SkuSettingsPublisher.Outcome.PUBLISHED, "inventory-service-skus.yaml", "DEFAULT_GROUP",
                "published"));

        settings("hot-1", "{\"segments\":4,\"allotment\":\"20%\"}")
                .andExpect(status().isAccepted())
                .andExpect(jsonPath("$.dataId").value("inventory-service-skus.yaml"))
                .andExpect(jsonPath("$.segments").value(4))
                .andExpect(jsonPath("$.allotment").value("20%"));

        // the admin the token names is the audit's actor
        verify(audit).record(org.mockito.ArgumentMatchers.eq("SKU_SETTINGS"), org.mockito.ArgumentMatchers.eq("hot-1"),
                org.mockito.ArgumentMatchers.isNull(), org.mockito.ArgumentMatchers.isNull(),
                org.mockito.ArgumentMatchers.contains("segments 4 allotment 20%"),
                org.mockito.ArgumentMatchers.eq("admin"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"segments\":0}                  | segments: must be 1 to 64",
            "{\"segments\":65}                 | segments: must be 1 to 64",
            "{\"allotment\":\"-5\"}            | allotment: a number of units (50) or a whole percent from 0 to 100 (10%)",
            "{\"allotment\":\"101%\"}          | allotment: a number of units (50) or a whole percent from 0 to 100 (10%)",
            "{\"allotment\":\"ten\"}           | allotment: a number of units (50) or a whole percent from 0 to 100 (10%)",
            "{}                                | give segments, allotment or both",
            "{\"segments\":null}               | give segments, allotment or both"})
    void refusesABadChangeNamingWhatIsWrongAndPublishesNothing(String body, String error) throws Exception {
        settings("hot-1", body)
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:invalid-request"))
                .andExpect(jsonPath("$.errors", contains(error)));

        verifyNoInteractions(publisher);
    }

    @Test
    void refusesBodiesThatAreNotTheChange() throws Exception {
        settings("hot-1", "{\"segments\":\"four\"}").andExpect(status().isBadRequest());
        settings("hot-1", "not json").andExpect(status().isBadRequest());
        settings("bad$sku", "{\"segments\":4}").andExpect(status().isBadRequest());
        verifyNoInteractions(publisher);
    }

    @Test
    void anUnknownSkuIs404AndNothingIsPublished() throws Exception {
        settings("nope", "{\"segments\":4}")
                .andExpect(status().isNotFound())
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:unknown-sku"));
        verifyNoInteractions(publisher);
    }

    @Test
    void eachWayPublishingFailsHasItsOwnProblem() throws Exception {
        given(publisher.publish(any(), any(), any())).willReturn(new SkuSettingsPublisher.Result(
                SkuSettingsPublisher.Outcome.NOT_LIVE, "inventory-service.yaml", "DEFAULT_GROUP", "files"));
        settings("hot-1", "{\"segments\":4}").andExpect(status().isConflict())
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:settings-not-live"));

        given(publisher.publish(any(), any(), any())).willReturn(new SkuSettingsPublisher.Result(
                SkuSettingsPublisher.Outcome.NOT_EDITABLE, "inventory-service.yaml", "DEFAULT_GROUP", "a list"));
        settings("hot-1", "{\"segments\":4}").andExpect(status().isConflict())
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:settings-not-editable"));

        given(publisher.publish(any(), any(), any())).willReturn(new SkuSettingsPublisher.Result(
                SkuSettingsPublisher.Outcome.CHANGED_MEANWHILE, "inventory-service.yaml", "DEFAULT_GROUP", "again"));
        settings("hot-1", "{\"segments\":4}").andExpect(status().isConflict())
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:settings-changed-meanwhile"));

        given(publisher.publish(any(), any(), any())).willReturn(new SkuSettingsPublisher.Result(
                SkuSettingsPublisher.Outcome.NACOS_UNAVAILABLE, "inventory-service.yaml", "DEFAULT_GROUP", "down"));
        settings("hot-1", "{\"segments\":4}").andExpect(status().isServiceUnavailable())
                .andExpect(header().string("Retry-After", "5"))
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:nacos-unavailable"));
    }

    private org.springframework.test.web.servlet.ResultActions settings(String sku, String body) throws Exception {
        return mvc.perform(put("/admin/skus/" + sku + "/settings").header("Authorization", "Bearer " + TOKEN)
                .contentType(MediaType.APPLICATION_JSON).content(body));
    }
}
