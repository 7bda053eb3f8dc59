package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.types.builtin.NodeId;
import java.util.Objects;

/** Options of a folder or an object declared with an {@link InMemoryNodeManagerBuilder} (Part 3, 5.5.1). */
public final class ObjectOptions extends NodeOptions<ObjectOptions> {

    ObjectOptions(NodeDeclaration declaration) {
        super(declaration);
    }

    /**
     * Makes the object (or folder) an event notifier (EventNotifier SubscribeToEvents, Part 3, 8.59):
     * clients may monitor its events, which the application reports with
     * {@code OpcUaServer.events().report(nodeId, event)}; they also reach the Server object.
     */
    public ObjectOptions eventNotifier() {
        declaration.eventNotifier = 1;
        return this;
    }

    /** The type definition of an object (BaseObjectType by default); ignored for folders. */
    public ObjectOptions typeDefinition(NodeId type) {
        declaration.typeDefinition = Objects.requireNonNull(type, "type");
        return this;
    }
}
