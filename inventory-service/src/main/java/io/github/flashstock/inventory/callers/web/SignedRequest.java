package io.github.flashstock.inventory.callers.web;

import java.util.List;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/**
 * A request signed by a service ({@link io.github.flashstock.support.auth.ServiceSignature}): before it is verified,
 * what the signature covers; once verified, the service that signed it (the principal, by name) with the authority
 * {@value #RESERVE}.
 */
final class SignedRequest extends AbstractAuthenticationToken {

    /** What a verified service may do: reserve stock. */
    static final String RESERVE = "RESERVE";

    /** What the signature covers, as the request carried it. */
    record Signed(String caller, String timestamp, String signature, String method, String path, String xid,
                  byte[] body) {
    }

    private final Signed signed;
    private final String caller;

    private SignedRequest(Signed signed, String caller, List<GrantedAuthority> authorities) {
        super(authorities);
        this.signed = signed;
        this.caller = caller;
        setAuthenticated(caller != null);
    }

    static SignedRequest unverified(Signed signed) {
        return new SignedRequest(signed, null, List.of());
    }

    static SignedRequest verified(Signed signed) {
        return new SignedRequest(signed, signed.caller(), List.of(new SimpleGrantedAuthority(RESERVE)));
    }

    Signed signed() {
        return signed;
    }

    @Override
    public Object getCredentials() {
        return signed.signature();
    }

    /** The service that signed the request, once verified; before, the name it claims. */
    @Override
    public Object getPrincipal() {
        return caller == null ? signed.caller() : caller;
    }

    @Override
    public String getName() {
        return String.valueOf(getPrincipal());
    }
}
