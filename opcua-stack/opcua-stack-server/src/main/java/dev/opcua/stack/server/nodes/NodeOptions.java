package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.roles.NodePermissions;
import dev.opcua.stack.server.roles.Permission;
import dev.opcua.stack.server.roles.WellKnownRole;
import java.util.List;
import java.util.Objects;

/**
 * Options every node declared with an {@link InMemoryNodeManagerBuilder} has: an explicit identifier,
 * names, its own RolePermissions (Part 3, 5.2.9), a parent of another namespace.
 *
 * @param <T> the options class, for chaining
 */
public abstract class NodeOptions<T extends NodeOptions<T>> {

    final NodeDeclaration declaration;

    NodeOptions(NodeDeclaration declaration) {
        this.declaration = declaration;
    }

    @SuppressWarnings("unchecked")
    private T self() {
        return (T) this;
    }

    /** A string identifier instead of the path. */
    public T id(String identifier) {
        declaration.identifier = Objects.requireNonNull(identifier, "identifier");
        return self();
    }

    /** A numeric identifier (UInt32) instead of the path. */
    public T id(long identifier) {
        if (identifier < 0 || identifier > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("a numeric identifier is a UInt32, was " + identifier);
        }
        declaration.identifier = identifier;
        return self();
    }

    public T displayName(String text) {
        declaration.displayName = text;
        return self();
    }

    public T description(String text) {
        declaration.description = text;
        return self();
    }

    /**
     * The node's own RolePermissions (Part 3, 5.2.9) instead of the namespace default; combined
     * with {@link #roles} when both are given.
     */
    public T permissions(NodePermissions permissions) {
        declaration.permissions = Objects.requireNonNull(permissions, "permissions");
        return self();
    }

    /**
     * Exactly {@code roles} have {@code permission} on this node; its other permissions are the
     * namespace default's (or those of {@link #permissions}). For example
     * {@code roles(Permission.WRITE, WellKnownRole.OPERATOR)}: everyone who may read, only
     * operators write.
     */
    public T roles(Permission permission, WellKnownRole... roles) {
        declaration.onlyRoles.put(Objects.requireNonNull(permission, "permission"), List.of(roles));
        return self();
    }

    /**
     * A parent of another namespace, e.g. a folder of namespace 0; only for a node whose path has
     * no parent segment.
     */
    public T parent(NodeId parent) {
        if (declaration.parentPath != null) {
            throw new IllegalArgumentException(declaration.path + " has its parent in its path already");
        }
        declaration.parent = Objects.requireNonNull(parent, "parent");
        return self();
    }
}
