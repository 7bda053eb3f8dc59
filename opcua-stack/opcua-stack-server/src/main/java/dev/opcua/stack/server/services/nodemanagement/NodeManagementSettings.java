package dev.opcua.stack.server.services.nodemanagement;

import dev.opcua.stack.core.config.InvalidSettingException;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.nodes.NodeManager;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.roles.WellKnownRole;
import java.util.ArrayList;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Whether and for whom a server offers the NodeManagement service set (Part 4, 5.7).
 *
 * <p>Off by default: a server that takes no changes answers the four services BadServiceUnsupported.
 * When on, a session needs one of {@code roles} and, on each node touched, the permission of Part 3,
 * 8.55 (AddNode on the parent, DeleteNode, AddReference or RemoveReference on the node): a namespace
 * whose permissions were never configured lets every role do everything, so the roles are what keeps
 * an anonymous client from changing the address space.
 *
 * @param enabled whether the four services are offered
 * @param roles the roles a session needs one of (ConfigureAdmin by default, the role of Part 3, 4.9.2
 *     for non-security configuration)
 * @param namespaces URIs of the namespaces that take changes; empty for every namespace whose node
 *     manager accepts them
 * @param persistDirectory where the nodes added through the services are saved, one NodeSet2 file per
 *     namespace, and read back at start so that they outlive a restart; null to keep them in memory only
 */
public record NodeManagementSettings(boolean enabled, Set<WellKnownRole> roles, Set<String> namespaces,
        Path persistDirectory) {

    /** The services are not offered. */
    public static final NodeManagementSettings DISABLED =
            new NodeManagementSettings(false, EnumSet.of(WellKnownRole.CONFIGURE_ADMIN), Set.of(), null);

    /** @throws InvalidSettingException {@code nodeManagement.roles} when enabled without any role */
    public NodeManagementSettings {
        roles = roles == null || roles.isEmpty() ? Set.of() : Set.copyOf(roles);
        namespaces = namespaces == null ? Set.of() : Set.copyOf(namespaces);
        if (enabled && roles.isEmpty()) {
            throw new InvalidSettingException("nodeManagement.roles", "[]",
                    "must name at least one well-known role, e.g. ConfigureAdmin: nobody could change anything");
        }
    }

    /** Settings that keep the added nodes in memory only. */
    public NodeManagementSettings(boolean enabled, Set<WellKnownRole> roles, Set<String> namespaces) {
        this(enabled, roles, namespaces, null);
    }

    /** Offered to ConfigureAdmin sessions, in every namespace whose node manager accepts changes, kept in memory only. */
    public static NodeManagementSettings enabledForConfigureAdmin() {
        return new NodeManagementSettings(true, EnumSet.of(WellKnownRole.CONFIGURE_ADMIN), Set.of(), null);
    }

    /** These settings with other roles. */
    public NodeManagementSettings withRoles(Set<WellKnownRole> value) {
        return new NodeManagementSettings(enabled, value, namespaces, persistDirectory);
    }

    /** These settings with other namespaces (empty: every namespace whose manager accepts changes). */
    public NodeManagementSettings withNamespaces(Set<String> value) {
        return new NodeManagementSettings(enabled, roles, value, persistDirectory);
    }

    /** These settings saving the added nodes in {@code directory} (null: in memory only). */
    public NodeManagementSettings withPersistDirectory(Path directory) {
        return new NodeManagementSettings(enabled, roles, namespaces, directory);
    }

    /**
     * Checks that every namespace of {@link #namespaces()} belongs to a node manager that accepts changes.
     *
     * @param importsPending whether NodeSets are still to be imported: a namespace no manager owns yet is let
     *     through, as an imported model may bring it
     * @throws InvalidSettingException {@code nodeManagement.namespaces} naming the URI and the namespaces that do
     */
    public void checkNamespaces(NodeManagers managers, boolean importsPending) {
        List<String> accepting = new ArrayList<>();
        for (NodeManager manager : managers.managers()) {
            if (manager instanceof NodeStoreNodeManager m && m.acceptsNodeManagement()) {
                accepting.addAll(m.namespaceUris());
            }
        }
        for (String uri : namespaces) {
            int index = managers.namespaces().indexOf(uri);
            boolean owned = index >= 0 && managers.managerOf(NodeId.numeric(index, 0)) != null;
            if (!accepting.contains(uri) && (owned || !importsPending)) {
                throw new InvalidSettingException("nodeManagement.namespaces", uri,
                        "must name a namespace whose node manager accepts changes; these do: " + accepting);
            }
        }
    }

    /** The role mask of {@link #roles()}. */
    public long roleMask() {
        return WellKnownRole.mask(roles);
    }
}
