package dev.opcua.spring.boot.console;

import java.security.Principal;
import java.util.Map;
import java.util.Objects;

/**
 * Who may write a variable from the console's address-space browser. Writing is off unless the application names
 * a Spring Security role ({@code opcua.console.write-role}); then only a signed-in user with that role may write
 * ({@link SpringSecurityRoleWriteAccess}). Everyone else gets 403 with the {@link Decision#reason()}.
 */
public interface ConsoleWriteAccess {

    /** Writing is off: nobody may write. */
    ConsoleWriteAccess DISABLED = user -> Decision.refused(
            "writing from the console is off: set opcua.console.write-role to the Spring Security role that may write");

    /** Whether this user may write; {@code user} is null when nobody is signed in. */
    Decision decide(Principal user);

    /**
     * The CSRF token the page must send with a write, from the request attribute {@code _csrf} that Spring
     * Security's servlet filter sets: {@code header} and {@code token}, or empty when there is none.
     */
    default Map<String, String> csrf(Object requestAttribute) {
        return Map.of();
    }

    /**
     * @param allowed whether the user may write
     * @param reason why not, for the 403 answer and the page; null when allowed
     */
    record Decision(boolean allowed, String reason) {

        public static Decision allow() {
            return new Decision(true, null);
        }

        public static Decision refused(String reason) {
            return new Decision(false, Objects.requireNonNull(reason, "reason"));
        }
    }
}
