package dev.opcua.stack.server.roles;

import dev.opcua.stack.core.types.enumerated.PermissionType;
import java.util.Arrays;

/**
 * The permissions a role may have on a node (PermissionType, Part 3, 8.55): bit {@link #ordinal()}
 * of a PermissionType mask.
 */
public enum Permission {

    BROWSE("Browse"),
    READ_ROLE_PERMISSIONS("ReadRolePermissions"),
    WRITE_ATTRIBUTE("WriteAttribute"),
    WRITE_ROLE_PERMISSIONS("WriteRolePermissions"),
    WRITE_HISTORIZING("WriteHistorizing"),
    READ("Read"),
    WRITE("Write"),
    READ_HISTORY("ReadHistory"),
    INSERT_HISTORY("InsertHistory"),
    MODIFY_HISTORY("ModifyHistory"),
    DELETE_HISTORY("DeleteHistory"),
    RECEIVE_EVENTS("ReceiveEvents"),
    CALL("Call"),
    ADD_REFERENCE("AddReference"),
    REMOVE_REFERENCE("RemoveReference"),
    DELETE_NODE("DeleteNode"),
    ADD_NODE("AddNode");

    /** Every permission as a PermissionType mask. */
    public static final long ALL = (1L << values().length) - 1;

    static {
        // the order above is the bit order of PermissionType
        if (READ.bit() != PermissionType.Read || CALL.bit() != PermissionType.Call
                || ADD_NODE.bit() != PermissionType.AddNode) {
            throw new ExceptionInInitializerError("Permission is out of step with PermissionType");
        }
    }

    private final String specName;

    Permission(String specName) {
        this.specName = specName;
    }

    /** The name in the specification, e.g. {@code ReadRolePermissions}. */
    public String specName() {
        return specName;
    }

    /** This permission's bit in a PermissionType mask. */
    public long bit() {
        return 1L << ordinal();
    }

    /**
     * The permission a configuration names, in any case, with or without '-', '_' or blanks
     * ({@code read}, {@code ReadHistory}, {@code read-history}).
     *
     * @throws IllegalArgumentException naming the permissions when none matches
     */
    public static Permission parse(String name) {
        String wanted = WellKnownRole.canonical(name);
        for (Permission permission : values()) {
            if (WellKnownRole.canonical(permission.specName).equals(wanted)) {
                return permission;
            }
        }
        throw new IllegalArgumentException("'" + name + "' is not a permission; the permissions are "
                + Arrays.stream(values()).map(Permission::specName).toList());
    }
}
