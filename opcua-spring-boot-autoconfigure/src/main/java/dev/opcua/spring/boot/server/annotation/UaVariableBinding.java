package dev.opcua.spring.boot.server.annotation;

import dev.opcua.stack.core.types.builtin.NodeId;

/**
 * A {@link UaVariable} member bound to a Variable node (Part 3, 5.6) of an {@link OpcUaAnnotatedNodeManager}:
 * the member's model, the node's path of browse names and, once the server started, its NodeId.
 */
final class UaVariableBinding {

    final UaVariableModel model;
    final String path;
    /** Whether it binds a child of a type instance rather than a node of the builder. */
    final boolean typed;
    volatile NodeId nodeId;

    UaVariableBinding(UaVariableModel model, String path, boolean typed) {
        this.model = model;
        this.path = path;
        this.typed = typed;
    }
}
