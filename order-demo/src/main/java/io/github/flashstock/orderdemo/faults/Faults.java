package io.github.flashstock.orderdemo.faults;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The switch for injected failures. Off unless {@code orders.faults.enabled} is true, which only the {@code faults}
 * profile sets: with it off, the header is ignored and every order runs normally.
 */
@Component
public class Faults {

    private static final Logger log = LoggerFactory.getLogger(Faults.class);

    private final boolean enabled;

    Faults(@Value("${orders.faults.enabled:false}") boolean enabled) {
        this.enabled = enabled;
        if (enabled) {
            log.warn("Fault injection is ON (profile 'faults'): requests may ask for failures with header {}",
                    Fault.HEADER);
        }
    }

    /** The fault a request asks for, or {@link Fault#NONE} when injection is off. */
    public Fault requested(String headerValue) {
        return enabled ? Fault.parse(headerValue) : Fault.NONE;
    }

    /** Thrown where an injected failure strikes. */
    public static final class InjectedFailure extends RuntimeException {
        public InjectedFailure(String message) {
            super(message, null, false, false);
        }
    }
}
