package dev.opcua.spring.boot.console;

import java.security.Principal;
import java.util.Map;
import java.util.Objects;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.web.csrf.CsrfToken;

/**
 * Writing for the users that have one Spring Security role: an authority {@code ROLE_<role>} (what
 * {@code User.withUsername(..).roles(role)} and {@code hasRole(role)} use), or the authority named as it is.
 */
public final class SpringSecurityRoleWriteAccess implements ConsoleWriteAccess {

    private static final String ROLE_PREFIX = "ROLE_";

    private final String role;
    private final String authority;

    /** @param role the role, with or without the {@code ROLE_} prefix */
    public SpringSecurityRoleWriteAccess(String role) {
        Objects.requireNonNull(role, "role");
        this.role = role.startsWith(ROLE_PREFIX) ? role.substring(ROLE_PREFIX.length()) : role;
        this.authority = ROLE_PREFIX + this.role;
    }

    @Override
    public Decision decide(Principal user) {
        if (!(user instanceof Authentication authentication) || !authentication.isAuthenticated()) {
            return Decision.refused("writing needs a signed-in user with the role " + role);
        }
        for (GrantedAuthority granted : authentication.getAuthorities()) {
            String name = granted.getAuthority();
            if (authority.equals(name) || role.equals(name)) {
                return Decision.allow();
            }
        }
        return Decision.refused("user " + authentication.getName() + " does not have the role " + role
                + " that writing needs (opcua.console.write-role)");
    }

    @Override
    public Map<String, String> csrf(Object requestAttribute) {
        return requestAttribute instanceof CsrfToken token
                ? Map.of("header", token.getHeaderName(), "token", token.getToken()) : Map.of();
    }
}
