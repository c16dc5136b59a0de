package io.github.flashstock.orderdemo.faults;

import java.time.Duration;
import java.util.Locale;

/**
 * One failure to inject into one order, named in the request header {@value #HEADER}:
 * {@code fail-after-reserve}, {@code lose-first-reserve-response} or {@code delay-after-reserve=PT5S}.
 */
public record Fault(Kind kind, Duration delay) {

    public static final String HEADER = "X-Flashstock-Fault";
    public static final Fault NONE = new Fault(Kind.NONE, Duration.ZERO);

    public enum Kind {
        NONE,
        /** the order service fails after the inventory Try succeeded: the global transaction rolls back */
        FAIL_AFTER_RESERVE,
        /** the first reservation call succeeds but its answer is treated as lost, so the call is retried */
        LOSE_FIRST_RESERVE_RESPONSE,
        /** the order service waits after the inventory Try, before the global commit */
        DELAY_AFTER_RESERVE
    }

    /** @throws Invalid for a value that names no fault */
    public static Fault parse(String value) {
        if (value == null || value.isBlank()) {
            return NONE;
        }
        String[] parts = value.trim().split("=", 2);
        Kind kind;
        try {
            kind = Kind.valueOf(parts[0].trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new Invalid("unknown fault '" + parts[0] + "'");
        }
        Duration delay = Duration.ZERO;
        if (kind == Kind.DELAY_AFTER_RESERVE) {
            if (parts.length < 2) {
                throw new Invalid("delay-after-reserve needs a duration, e.g. delay-after-reserve=PT5S");
            }
            try {
                delay = Duration.parse(parts[1].trim());
            } catch (RuntimeException e) {
                throw new Invalid("'" + parts[1] + "' is not an ISO-8601 duration such as PT5S");
            }
        }
        return new Fault(kind, delay);
    }

    /** The header names no fault this service knows. */
    public static final class Invalid extends RuntimeException {
        Invalid(String message) {
            super(message, null, false, false);
        }
    }

    public boolean is(Kind other) {
        return kind == other;
    }
}
