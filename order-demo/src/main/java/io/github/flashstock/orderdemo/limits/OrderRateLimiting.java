package io.github.flashstock.orderdemo.limits;

import io.github.flashstock.support.security.Refusals;
import io.github.flashstock.support.web.ProblemDetails;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.function.Function;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * The two limits on {@code POST /orders} as filters of the buyers' chain: per client address before the buyer's token
 * is read (a flood costs no signature check), per buyer once it is. Over either: 429 {@code too-many-orders} with
 * {@code Retry-After} and the limit's scope, and nothing is done.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(OrderRateSettings.class)
public class OrderRateLimiting {

    private static final RequestMatcher ORDERS = PathPatternRequestMatcher.withDefaults()
            .matcher(HttpMethod.POST, "/orders");

    @Bean
    OrderRateLimits orderRateLimits(OrderRateSettings settings, MeterRegistry meters) {
        return new OrderRateLimits(settings, meters);
    }

    @EventListener
    void warmUp(ApplicationReadyEvent ready) {
        ready.getApplicationContext().getBean(OrderRateLimits.class).warmUp();
    }

    /** The filter that takes one order from the client address's bucket. */
    public static Filter perAddress(OrderRateLimits limits) {
        return filter(request -> limits.address(request.getRemoteAddr()));
    }

    /** The filter that takes one order from the buyer's bucket (after the buyer's token is verified). */
    public static Filter perBuyer(OrderRateLimits limits) {
        return filter(request -> {
            Authentication buyer = SecurityContextHolder.getContext().getAuthentication();
            return buyer == null || !buyer.isAuthenticated() ? OrderRateLimits.Decision.ALLOWED
                    : limits.buyer(buyer.getName());
        });
    }

    /**
     * A plain filter, not a {@code OncePerRequestFilter}: both limits are made here, and that class would let the
     * second of two filters of the same class skip itself as "already applied".
     */
    private static Filter filter(Function<HttpServletRequest, OrderRateLimits.Decision> limit) {
        return (servletRequest, servletResponse, chain) -> {
            HttpServletRequest request = (HttpServletRequest) servletRequest;
            HttpServletResponse response = (HttpServletResponse) servletResponse;
            if (!ORDERS.matches(request)) {
                chain.doFilter(request, response);
                return;
            }
            OrderRateLimits.Decision decision = limit.apply(request);
            if (decision.allowed()) {
                chain.doFilter(request, response);
                return;
            }
            response.setHeader("Retry-After", Long.toString(decision.retryAfterSeconds()));
            ProblemDetail problem = ProblemDetails.of(HttpStatus.TOO_MANY_REQUESTS, "too-many-orders",
                    "Too many orders", "this " + decision.scope() + " placed more orders than it may at once; try"
                            + " again in " + decision.retryAfterSeconds() + " s; nothing was done");
            problem.setProperty("scope", decision.scope());
            Refusals.write(response, problem);
        };
    }
}
