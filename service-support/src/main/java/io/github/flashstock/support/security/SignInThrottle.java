package io.github.flashstock.support.security;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.EstimationProbe;
import io.github.flashstock.support.web.ProblemDetails;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Holds off a client address that keeps failing to sign in (a wrong admin token, a bad service signature): each failure
 * takes one token from the address's bucket ({@code failures} tokens, refilled evenly over {@code period}, Bucket4j);
 * while the bucket is empty, every request from that address to a route that needs credentials is answered 429
 * {@code too-many-failed-sign-ins} with {@code Retry-After}, before its credentials are looked at, so guessing a
 * token costs the guesser time and the service next to nothing. Every failure is logged with its address and route.
 * The check is a filter of each chain that reads credentials ({@link #filter()}), not a servlet filter of its own, so
 * that it runs after the firewall, on the routes that need it only. The buckets live in this process (at most {@value #ADDRESSES} addresses, the least recently seen forgotten first):
 * with several instances, each holds off on its own.
 */
public final class SignInThrottle {

    static final int ADDRESSES = 10_000;
    private static final Logger log = LoggerFactory.getLogger(SignInThrottle.class);

    private final long failures;
    private final Duration period;
    private final Map<String, Bucket> buckets = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
            return size() > ADDRESSES;
        }
    };

    /**
     * @param failures failed sign-ins an address may make at once before it is held off
     * @param period   the time in which an address earns all of them back
     */
    public SignInThrottle(long failures, Duration period) {
        if (failures < 1 || period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("failed sign-ins: at least 1 per a positive period, not " + failures
                    + " per " + period);
        }
        this.failures = failures;
        this.period = period;
    }

    /** Counts a failed sign-in of the request's address, and logs it. */
    public void failed(HttpServletRequest request, String why) {
        String address = request.getRemoteAddr();
        Bucket bucket = bucket(address);
        bucket.tryConsume(1);
        log.warn("failed sign-in from {} on {} {}: {} ({} more before the address is held off)", address,
                request.getMethod(), printable(request.getRequestURI()), why, bucket.getAvailableTokens());
    }

    /** Whether the address is held off now. */
    public boolean heldOff(String address) {
        Bucket bucket;
        synchronized (buckets) {
            bucket = buckets.get(address);
        }
        return bucket != null && bucket.getAvailableTokens() < 1;
    }

    /** The filter a chain places before its authentication: an address held off goes no further. */
    public OncePerRequestFilter filter() {
        return new OncePerRequestFilter() {
            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                    throws ServletException, IOException {
                if (!refused(request, response)) {
                    chain.doFilter(request, response);
                }
            }
        };
    }

    private boolean refused(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Bucket bucket;
        synchronized (buckets) {
            bucket = buckets.get(request.getRemoteAddr());
        }
        if (bucket != null) {
            EstimationProbe next = bucket.estimateAbilityToConsume(1);
            if (!next.canBeConsumed()) {
                long seconds = Math.max(1, Duration.ofNanos(next.getNanosToWaitForRefill()).toSeconds() + 1);
                response.setHeader("Retry-After", Long.toString(seconds));
                ProblemDetail problem = ProblemDetails.of(HttpStatus.TOO_MANY_REQUESTS, "too-many-failed-sign-ins",
                        "Too many failed sign-ins", "this address failed to sign in " + failures + " times within "
                                + period.toSeconds() + " s; try again in " + seconds + " s; nothing was done");
                Refusals.write(response, problem);
                return true;
            }
        }
        return false;
    }

    private Bucket bucket(String address) {
        synchronized (buckets) {
            return buckets.computeIfAbsent(address, a -> Bucket.builder()
                    .addLimit(limit -> limit.capacity(failures).refillGreedy(failures, period)).build());
        }
    }

    private static String printable(String text) {
        String shown = text.replaceAll("[^\\x21-\\x7e]", "?");
        return shown.length() > 200 ? shown.substring(0, 200) + "..." : shown;
    }
}
