package io.github.flashstock.inventory.callers.web;

import io.github.flashstock.inventory.callers.CallerSettings;
import io.github.flashstock.support.auth.ServiceSignature;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.core.Authentication;

/**
 * Verifies a {@link SignedRequest}: the services named in {@code inventory.callers.keys} each sign with one of at most
 * {@value CallerSettings#KEYS_PER_CALLER} keys (the one in use and the next, while it is rotated), over the exact
 * request (its XID and body included), within {@code inventory.callers.window} of this service's clock. Anything else
 * is a {@link BadCredentialsException} whose message says why, without saying whether the XID is live.
 */
final class SignedCallers implements AuthenticationProvider {

    /** Each service's keys, by name. */
    private final Map<String, List<byte[]>> keys;
    private final CallerSettings settings;
    private final Clock clock;

    SignedCallers(CallerSettings settings, Clock clock) {
        if (settings.keys().values().stream().allMatch(List::isEmpty)) {
            throw new IllegalStateException("inventory.callers.keys names no service: name each service that may"
                    + " reserve stock with the key it signs its requests with (inventory.callers.keys.order-demo,"
                    + " environment INVENTORY_CALLER_KEY_ORDER_DEMO; docs/operations.md, \"Before production\")");
        }
        Map<String, List<byte[]>> byName = new LinkedHashMap<>();
        settings.keys().forEach((name, texts) -> {
            String setting = "inventory.callers.keys." + name;
            if (texts.size() > CallerSettings.KEYS_PER_CALLER) {
                throw new IllegalStateException(setting + " has " + texts.size() + " keys; at most "
                        + CallerSettings.KEYS_PER_CALLER + " (the one in use and the next, while rotating)");
            }
            if (!texts.isEmpty()) {
                byName.put(name, texts.stream().map(text -> ServiceSignature.key(setting, text)).toList());
            }
        });
        this.keys = Map.copyOf(byName);
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        SignedRequest.Signed s = ((SignedRequest) authentication).signed();
        List<byte[]> callersKeys = s.caller() == null ? List.of() : keys.getOrDefault(s.caller(), List.of());
        // with no key for the claimed name, verify against none: the refusal then says why (unsigned, unknown)
        Optional<String> refusal = ServiceSignature.verify(Map.of(), s.caller(), s.timestamp(), s.signature(),
                s.method(), s.path(), s.xid(), s.body(), clock.instant(), settings.window());
        for (byte[] key : callersKeys) {
            Optional<String> withKey = ServiceSignature.verify(Map.of(s.caller(), key), s.caller(), s.timestamp(),
                    s.signature(), s.method(), s.path(), s.xid(), s.body(), clock.instant(), settings.window());
            if (withKey.isEmpty()) {
                return SignedRequest.verified(s);
            }
            if (key == callersKeys.get(0)) {
                refusal = withKey;
            }
        }
        throw new BadCredentialsException(refusal.orElse("the request is not signed"));
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return SignedRequest.class.isAssignableFrom(authentication);
    }
}
