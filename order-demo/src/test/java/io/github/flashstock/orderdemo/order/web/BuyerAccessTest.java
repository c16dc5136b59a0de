package io.github.flashstock.orderdemo.order.web;

import static org.assertj.core.api.Assertions.assertThat;
import static io.github.flashstock.orderdemo.buyers.BuyerTokenFixtures.bearer;
import static io.github.flashstock.orderdemo.buyers.BuyerTokenFixtures.bearerFor;
import static io.github.flashstock.orderdemo.buyers.BuyerTokenFixtures.bearerFrom;
import static io.github.flashstock.orderdemo.buyers.BuyerTokenFixtures.bearerWithNumericSubject;
import static io.github.flashstock.orderdemo.buyers.BuyerTokenFixtures.bearerWithoutExpiry;
import static io.github.flashstock.orderdemo.buyers.BuyerTokenFixtures.expiredBearer;
import static io.github.flashstock.orderdemo.buyers.BuyerTokenFixtures.forgedBearer;
import static io.github.flashstock.orderdemo.buyers.BuyerTokenFixtures.unsignedBearer;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.github.flashstock.orderdemo.buyers.BuyerSecurity;
import io.github.flashstock.orderdemo.buyers.BuyerTokenFixtures;
import io.github.flashstock.orderdemo.faults.Fault;
import io.github.flashstock.orderdemo.faults.Faults;
import io.github.flashstock.orderdemo.order.Order;
import io.github.flashstock.orderdemo.order.OrderItem;
import io.github.flashstock.orderdemo.order.OrderStatus;
import io.github.flashstock.orderdemo.order.PlacingOrders;
import io.github.flashstock.orderdemo.order.ReadingOrders;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

/**
 * Who may place and read orders: the buyer is the subject of a verified buyer token, never a field of the body; a
 * request without a good token changes nothing; an order is shown to its buyer only, and without its XID.
 */
@WebMvcTest(OrderController.class)
@Import(BuyerSecurity.class)
@TestPropertySource(properties = "orders.admin-token=" + BuyerAccessTest.ADMIN_TOKEN)
// the packaged defaults are the devstack's, which the service accepts in this profile only (DevstackCredentials)
@ActiveProfiles("devstack")
class BuyerAccessTest {

    static final String ADMIN_TOKEN = "admin-token-of-this-test-0001";

    private static final String ITEMS = "{\"items\":[{\"skuId\":\"hot-1\",\"quantity\":1}]}";

    @TestConfiguration
    static class Meters {
        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }

    @DynamicPropertySource
    static void buyerTokens(DynamicPropertyRegistry registry) {
        BuyerTokenFixtures.configure(registry);
    }

    @Autowired
    MockMvc mvc;
    @MockitoBean
    PlacingOrders placing;
    @MockitoBean
    ReadingOrders reading;
    @MockitoBean
    Faults faults;

    @BeforeEach
    void noFault() {
        given(faults.requested(any())).willReturn(Fault.NONE);
    }

    private ResultActions place(String authorization, String body) throws Exception {
        var request = post("/orders").contentType(MediaType.APPLICATION_JSON).content(body);
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return mvc.perform(request);
    }

    private void orderOf(String userId) {
        given(reading.find("o-1")).willReturn(new Order("o-1", userId, OrderStatus.CONFIRMED, "127.0.0.1:18091:5",
                List.of(new OrderItem("hot-1", 1)), Instant.now(), Instant.now()));
    }

    @Test
    void placesTheOrderForTheSubjectOfTheToken() throws Exception {
        given(placing.place(anyString(), anyString(), any(), any(), any())).willReturn("127.0.0.1:18091:9");
        given(reading.status(anyString())).willReturn(OrderStatus.CONFIRMED);

        place(bearer("alice"), ITEMS)
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.orderId").isNotEmpty())
                .andExpect(jsonPath("$.status").value("CONFIRMED"))
                .andExpect(jsonPath("$.xid").doesNotExist());

        verify(placing).refuseIfSoldOut(anyString(), eq("alice"), eq(List.of(new OrderItem("hot-1", 1))));
        verify(placing).place(anyString(), eq("alice"), eq(List.of(new OrderItem("hot-1", 1))), any(), any());
    }

    /** One buyer floods: past its burst it is refused (429, Retry-After) before any order code runs; others buy on. */
    @Test
    void refusesAFloodOfOneBuyerWhileOtherBuyersStillOrder() throws Exception {
        given(placing.place(anyString(), anyString(), any(), any(), any())).willReturn("127.0.0.1:18091:9");
        given(reading.status(anyString())).willReturn(OrderStatus.CONFIRMED);
        String flooder = bearer("flooding-buyer");
        int placed = 0;
        int refused = 0;
        org.springframework.mock.web.MockHttpServletResponse firstRefusal = null;
        for (int i = 0; i < 40; i++) {
            var response = place(flooder, ITEMS).andReturn().getResponse();
            placed += response.getStatus() == 201 ? 1 : 0;
            refused += response.getStatus() == 429 ? 1 : 0;
            if (response.getStatus() == 429 && firstRefusal == null) {
                firstRefusal = response;
            }
        }

        assertThat(placed + refused).isEqualTo(40);
        assertThat(firstRefusal).isNotNull();
        assertThat(firstRefusal.getHeader("Retry-After")).isNotBlank();
        assertThat(firstRefusal.getContentType()).startsWith("application/problem+json");
        assertThat(firstRefusal.getContentAsString()).contains("urn:flashstock:problem:too-many-orders")
                .contains("\"scope\":\"buyer\"");
        // a burst of 10 and 5 a second: 40 orders in far less than 6 s cannot all pass
        assertThat(placed).isBetween(10, 39);
        place(bearer("another-buyer"), ITEMS).andExpect(status().isCreated());
        verify(placing, org.mockito.Mockito.times(placed + 1)).place(anyString(), anyString(), any(), any(), any());
    }

    @Test
    void refusesABodyThatStillNamesAUser() throws Exception {
        place(bearer("alice"), "{\"userId\":\"mallory\",\"items\":[{\"skuId\":\"hot-1\",\"quantity\":1}]}")
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:invalid-request"))
                .andExpect(jsonPath("$.errors[0]").value(startsWith("userId: unknown field")));

        verifyNoInteractions(placing);
    }

    @Test
    void refusesAnOrderWithoutAToken() throws Exception {
        place(null, ITEMS)
                .andExpect(status().isUnauthorized())
                .andExpect(header().string("WWW-Authenticate", startsWith("Bearer")))
                .andExpect(header().string("WWW-Authenticate", not(containsString("error="))))
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:buyer-token-required"))
                .andExpect(jsonPath("$.status").value(401));

        verifyNoInteractions(placing, reading);
    }

    @Test
    void refusesEveryTokenThatIsNotAGoodBuyerToken() throws Exception {
        Map<String, String> refused = Map.ofEntries(
                Map.entry("forged signature", forgedBearer("alice")),
                Map.entry("expired", expiredBearer("alice")),
                Map.entry("another issuer", bearerFrom("urn:someone-else", "alice")),
                Map.entry("for another service", bearerFor("urn:flashstock:another-service", "alice")),
                Map.entry("a subject that is a JSON number", bearerWithNumericSubject(42)),
                Map.entry("no expiry", bearerWithoutExpiry("alice")),
                Map.entry("no signature", unsignedBearer("alice")),
                Map.entry("a subject that is no user id", bearer("alice smith")),
                Map.entry("a subject too long", bearer("a".repeat(65))),
                Map.entry("not a JWT", "Bearer not-a-jwt"),
                Map.entry("no bearer scheme", "Basic YWxpY2U6c2VjcmV0"));

        for (Map.Entry<String, String> token : refused.entrySet()) {
            ResultActions answer = place(token.getValue(), ITEMS)
                    .andExpect(status().isUnauthorized())
                    .andExpect(header().string("WWW-Authenticate", startsWith("Bearer")))
                    .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                    .andExpect(jsonPath("$.status").value(401));
            if (token.getValue().startsWith("Bearer ")) {
                answer.andExpect(header().string("WWW-Authenticate", containsString("error=\"invalid_token\"")))
                        .andExpect(jsonPath("$.type").value("urn:flashstock:problem:buyer-token-refused"));
            }
        }

        verifyNoInteractions(placing, reading);
    }

    @Test
    void saysWhyATokenWasRefused() throws Exception {
        place(bearerFrom("urn:someone-else", "alice"), ITEMS)
                .andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.detail").value(containsString("issuer")));
        place(expiredBearer("alice"), ITEMS)
                .andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.detail").value(containsString("expired")));
        place(bearerFor("urn:flashstock:another-service", "alice"), ITEMS)
                .andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.detail").value(containsString("audience")));
        place(bearerWithNumericSubject(42), ITEMS)
                .andExpect(status().isUnauthorized())
                .andExpect(jsonPath("$.detail").value(containsString("JSON string")));
    }

    @Test
    void showsAnOrderToItsBuyerWithoutItsXid() throws Exception {
        orderOf("alice");

        mvc.perform(get("/orders/o-1").header("Authorization", bearer("alice")))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.orderId").value("o-1"))
                .andExpect(jsonPath("$.userId").value("alice"))
                .andExpect(jsonPath("$.status").value("CONFIRMED"))
                .andExpect(jsonPath("$.items[0].skuId").value("hot-1"))
                .andExpect(jsonPath("$.xid").doesNotExist());
    }

    @Test
    void refusesToShowAnOrderToAnotherBuyer() throws Exception {
        orderOf("alice");

        mvc.perform(get("/orders/o-1").header("Authorization", bearer("bob")))
                .andExpect(status().isForbidden())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:order-of-another-buyer"))
                .andExpect(jsonPath("$.orderId").value("o-1"))
                .andExpect(jsonPath("$.userId").doesNotExist())
                .andExpect(jsonPath("$.xid").doesNotExist());
    }

    @Test
    void refusesToShowAnOrderWithoutAToken() throws Exception {
        mvc.perform(get("/orders/o-1"))
                .andExpect(status().isUnauthorized())
                .andExpect(header().string("WWW-Authenticate", startsWith("Bearer")));

        verifyNoInteractions(reading);
    }

    @Test
    void aPathTheFirewallTurnsAwayIsAProblem() throws Exception {
        mvc.perform(get("/orders/o-1;x=y").header("Authorization", bearer("alice")))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.type").value("urn:flashstock:problem:malformed-request"));

        verifyNoInteractions(reading);
    }

    @Test
    void leavesManagementPathsToTheAdminToken() throws Exception {
        // the admin token is no JWT: read as a buyer token it would be a 401 with the buyer's challenge here; the slice
        // has no actuator, so no rule names the path and it is refused as anything unnamed is (403, no challenge)
        mvc.perform(post("/actuator/refresh").header("Authorization", "Bearer " + ADMIN_TOKEN))
                .andExpect(status().isForbidden())
                .andExpect(header().doesNotExist("WWW-Authenticate"));
    }
}
