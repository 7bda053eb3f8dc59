package dev.opcua.stack.server.roles;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;

/**
 * The well-known roles of OPC UA (Part 3, 4.9.2; their Role objects are in namespace 0 below
 * Server.ServerCapabilities.RoleSet, Part 18). Each role is one bit of a session's role mask, so that a
 * permission check is one AND of two longs.
 */
public enum WellKnownRole {

    /** Sessions with anonymous credentials. */
    ANONYMOUS(NodeIds.WellKnownRole_Anonymous, "Anonymous"),
    /** Sessions with valid non-anonymous credentials. */
    AUTHENTICATED_USER(NodeIds.WellKnownRole_AuthenticatedUser, "AuthenticatedUser"),
    /** May browse, read live data, read history and receive events. */
    OBSERVER(NodeIds.WellKnownRole_Observer, "Observer"),
    /** May also write live data, call methods that run the process. */
    OPERATOR(NodeIds.WellKnownRole_Operator, "Operator"),
    /** May also change configuration of the process (non-security). */
    ENGINEER(NodeIds.WellKnownRole_Engineer, "Engineer"),
    /** May also change the process's limits and set points. */
    SUPERVISOR(NodeIds.WellKnownRole_Supervisor, "Supervisor"),
    /** May change the non-security configuration of the server. */
    CONFIGURE_ADMIN(NodeIds.WellKnownRole_ConfigureAdmin, "ConfigureAdmin"),
    /** May change the security configuration of the server. */
    SECURITY_ADMIN(NodeIds.WellKnownRole_SecurityAdmin, "SecurityAdmin");

    /** The mask of every well-known role. */
    public static final long ALL = (1L << values().length) - 1;

    private final NodeId nodeId;
    private final String browseName;

    WellKnownRole(int id, String browseName) {
        this.nodeId = NodeId.ns0(id);
        this.browseName = browseName;
    }

    /** The NodeId of the role's object in namespace 0. */
    public NodeId nodeId() {
        return nodeId;
    }

    /** The BrowseName, e.g. {@code ConfigureAdmin}. */
    public String browseName() {
        return browseName;
    }

    /** This role's bit in a role mask. */
    public long mask() {
        return 1L << ordinal();
    }

    /** The mask of {@code roles}. */
    public static long mask(Collection<WellKnownRole> roles) {
        long mask = 0;
        for (WellKnownRole role : roles) {
            mask |= role.mask();
        }
        return mask;
    }

    /** The role whose object is {@code nodeId}, or null. */
    public static WellKnownRole of(NodeId nodeId) {
        for (WellKnownRole role : values()) {
            if (role.nodeId.equals(nodeId)) {
                return role;
            }
        }
        return null;
    }

    /**
     * The role a configuration names: its BrowseName or constant name in any case, with or without
     * '-', '_' or blanks ({@code operator}, {@code ConfigureAdmin}, {@code configure-admin}).
     *
     * @throws IllegalArgumentException naming the well-known roles when none matches
     */
    public static WellKnownRole parse(String name) {
        String wanted = canonical(name);
        for (WellKnownRole role : values()) {
            if (canonical(role.browseName).equals(wanted)) {
                return role;
            }
        }
        throw new IllegalArgumentException("'" + name + "' is not a well-known role; the roles are "
                + Arrays.stream(values()).map(WellKnownRole::browseName).toList());
    }

    static String canonical(String name) {
        return name == null ? "" : name.replaceAll("[-_\\s]", "").toLowerCase(Locale.ROOT);
    }
}
