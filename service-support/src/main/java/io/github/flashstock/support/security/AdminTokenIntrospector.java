package io.github.flashstock.support.security;

import io.github.flashstock.support.web.AdminTokens;
import java.util.List;
import java.util.Map;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.oauth2.core.OAuth2AuthenticatedPrincipal;
import org.springframework.security.oauth2.server.resource.introspection.BadOpaqueTokenException;
import org.springframework.security.oauth2.server.resource.introspection.OAuth2IntrospectionAuthenticatedPrincipal;
import org.springframework.security.oauth2.server.resource.introspection.OpaqueTokenIntrospector;

/**
 * An admin's bearer token, read as Spring Security's resource server reads an opaque token: the {@link AdminTokens}
 * this service was started with say which admin it names, in constant time. The authentication's name is the admin's
 * name ({@value AdminTokens#ADMIN} or a named token's name), which is who every audit record says acted; its only
 * authority is {@value #ROLE}. A token that names no admin is refused ({@link BadOpaqueTokenException}: 401).
 */
public final class AdminTokenIntrospector implements OpaqueTokenIntrospector {

    /** The authority of a request made with an admin token. */
    public static final String ROLE = "ROLE_ADMIN";

    private final AdminTokens tokens;

    public AdminTokenIntrospector(AdminTokens tokens) {
        this.tokens = tokens;
    }

    @Override
    public OAuth2AuthenticatedPrincipal introspect(String token) {
        String admin = tokens.admin(token)
                .orElseThrow(() -> new BadOpaqueTokenException("not an admin token of this service"));
        return new OAuth2IntrospectionAuthenticatedPrincipal(admin, Map.of("sub", admin),
                List.of(new SimpleGrantedAuthority(ROLE)));
    }
}
