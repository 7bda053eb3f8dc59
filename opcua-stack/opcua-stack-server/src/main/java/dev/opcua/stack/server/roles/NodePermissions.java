package dev.opcua.stack.server.roles;

import dev.opcua.stack.core.types.structured.RolePermissionType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The permissions of each role on a node (RolePermissions, Part 3, 5.2.9 and 8.55), held as a table
 * precomputed for the request path: for each permission the mask of the roles that have it, so that
 * "may this session write?" is {@code (rolesWith[WRITE] & sessionRoles) != 0}, without a copy, a map
 * lookup or a lock. Immutable; one instance is shared by every node with the same permissions (a
 * namespace default, say).
 */
public final class NodePermissions {

    private static final int PERMISSIONS = Permission.values().length;
    private static final int ROLES = WellKnownRole.values().length;

    /** Every role has every permission: what a node has when nothing is configured. */
    public static final NodePermissions ALL = allOf(Permission.ALL);

    /** PermissionType mask per role, by {@link WellKnownRole#ordinal()}. */
    private final long[] permissionsByRole;
    /** Role mask per permission, by {@link Permission#ordinal()}. */
    private final long[] rolesByPermission;

    private NodePermissions(long[] permissionsByRole) {
        this.permissionsByRole = permissionsByRole;
        this.rolesByPermission = new long[PERMISSIONS];
        for (int role = 0; role < ROLES; role++) {
            for (int p = 0; p < PERMISSIONS; p++) {
                if ((permissionsByRole[role] & (1L << p)) != 0) {
                    rolesByPermission[p] |= 1L << role;
                }
            }
        }
    }

    private static NodePermissions allOf(long permissions) {
        long[] table = new long[ROLES];
        Arrays.fill(table, permissions);
        return new NodePermissions(table);
    }

    /** The roles and their permissions; a role not named has none. */
    public static NodePermissions of(Map<WellKnownRole, ? extends Collection<Permission>> grants) {
        Builder builder = builder();
        grants.forEach((role, permissions) -> builder.grant(role, permissions.toArray(Permission[]::new)));
        return builder.build();
    }

    /** Starts from no role having any permission. */
    public static Builder builder() {
        return new Builder(new long[ROLES]);
    }

    /** Whether any of the roles in {@code roles} (a role mask) has {@code permission}. */
    public boolean allows(long roles, Permission permission) {
        return (rolesByPermission[permission.ordinal()] & roles) != 0;
    }

    /** Whether every role has every permission. */
    public boolean isUnrestricted() {
        for (long permissions : permissionsByRole) {
            if (permissions != Permission.ALL) {
                return false;
            }
        }
        return true;
    }

    /** The PermissionType mask of the permissions of any of {@code roles} (the user's permissions). */
    public long permissionsOf(long roles) {
        long permissions = 0;
        for (int role = 0; role < ROLES; role++) {
            if ((roles & (1L << role)) != 0) {
                permissions |= permissionsByRole[role];
            }
        }
        return permissions;
    }

    /** The PermissionType mask of one role. */
    public long permissionsOf(WellKnownRole role) {
        return permissionsByRole[role.ordinal()];
    }

    /**
     * These permissions, except that exactly {@code roles} have {@code permission}: e.g. the namespace
     * default with Write for Operator and Engineer only.
     */
    public NodePermissions withOnly(Permission permission, Collection<WellKnownRole> roles) {
        long mask = WellKnownRole.mask(roles);
        long[] table = permissionsByRole.clone();
        for (int role = 0; role < ROLES; role++) {
            table[role] = (mask & (1L << role)) != 0 ? table[role] | permission.bit() : table[role] & ~permission.bit();
        }
        return new NodePermissions(table);
    }

    /** The RolePermissions attribute: one entry per role that has any permission (Part 3, 5.2.9). */
    public RolePermissionType[] toRolePermissions() {
        return toRolePermissions(WellKnownRole.ALL);
    }

    /**
     * The UserRolePermissions attribute (Part 3, 5.2.10): the entries of {@link #toRolePermissions()}
     * for the roles of the session.
     */
    public RolePermissionType[] toRolePermissions(long roles) {
        List<RolePermissionType> entries = new ArrayList<>(ROLES);
        for (WellKnownRole role : WellKnownRole.values()) {
            long permissions = permissionsByRole[role.ordinal()];
            if ((roles & role.mask()) != 0 && permissions != 0) {
                entries.add(new RolePermissionType(role.nodeId(), permissions));
            }
        }
        return entries.toArray(RolePermissionType[]::new);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof NodePermissions that && Arrays.equals(permissionsByRole, that.permissionsByRole);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(permissionsByRole);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("NodePermissions[");
        for (WellKnownRole role : WellKnownRole.values()) {
            long permissions = permissionsByRole[role.ordinal()];
            if (permissions != 0) {
                text.append(text.length() > 16 ? ", " : "").append(role.browseName()).append('=');
                List<String> names = new ArrayList<>();
                for (Permission p : Permission.values()) {
                    if ((permissions & p.bit()) != 0) {
                        names.add(p.specName());
                    }
                }
                text.append(names);
            }
        }
        return text.append(']').toString();
    }

    /** Grants permissions to roles. */
    public static final class Builder {
        private final long[] table;

        private Builder(long[] table) {
            this.table = table;
        }

        public Builder grant(WellKnownRole role, Permission... permissions) {
            Objects.requireNonNull(role, "role");
            for (Permission permission : permissions) {
                table[role.ordinal()] |= permission.bit();
            }
            return this;
        }

        public Builder grant(WellKnownRole role, Set<Permission> permissions) {
            return grant(role, permissions.toArray(Permission[]::new));
        }

        public NodePermissions build() {
            return new NodePermissions(table.clone());
        }
    }
}
