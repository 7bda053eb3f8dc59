package dev.opcua.stack.server.nodes;

import dev.opcua.stack.server.roles.Permission;
import dev.opcua.stack.server.roles.WellKnownRole;

/** Options of a method declared with an {@link InMemoryNodeManagerBuilder} (Part 3, 5.7). */
public final class MethodOptions extends NodeOptions<MethodOptions> {

    MethodOptions(NodeDeclaration declaration) {
        super(declaration);
    }

    /** Only these roles may call the method (Call permission); the other permissions as the namespace's. */
    public MethodOptions callRoles(WellKnownRole... roles) {
        return roles(Permission.CALL, roles);
    }
}
