package dev.opcua.stack.server.roles;

import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.server.session.Identity;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Which roles a user has (the identity mapping of Part 3, 4.9.2 and Part 18, 4.4): asked once per
 * ActivateSession, its answer kept as the session's role mask.
 *
 * <p>{@link #wellKnown()} grants what the specification says every session gets: Anonymous to
 * anonymous users, AuthenticatedUser to every user with valid non-anonymous credentials; the
 * mappers built from it add configured roles on top.
 */
@FunctionalInterface
public interface RoleMapper {

    Set<WellKnownRole> rolesOf(Identity identity);

    /** The role mask of {@link #rolesOf}. */
    default long mask(Identity identity) {
        return identity == null ? 0 : WellKnownRole.mask(rolesOf(identity));
    }

    /** Anonymous for anonymous users, AuthenticatedUser for everyone else. */
    static RoleMapper wellKnown() {
        return identity -> EnumSet.of(identity.isAnonymous() ? WellKnownRole.ANONYMOUS
                : WellKnownRole.AUTHENTICATED_USER);
    }

    /**
     * {@link #wellKnown()} and, for users who logged in with a user name and password, the roles
     * configured for that user name.
     */
    static RoleMapper byUserName(Map<String, ? extends Set<WellKnownRole>> roles) {
        Map<String, Set<WellKnownRole>> copy = new HashMap<>();
        roles.forEach((user, set) -> copy.put(Objects.requireNonNull(user, "user name"),
                set.isEmpty() ? EnumSet.noneOf(WellKnownRole.class) : EnumSet.copyOf(set)));
        RoleMapper base = wellKnown();
        return identity -> {
            Set<WellKnownRole> granted = EnumSet.copyOf(base.rolesOf(identity));
            Set<WellKnownRole> configured = identity.tokenType() == UserTokenType.UserName
                    ? copy.get(identity.userName()) : null;
            if (configured != null) {
                granted.addAll(configured);
            }
            return granted;
        };
    }
}
