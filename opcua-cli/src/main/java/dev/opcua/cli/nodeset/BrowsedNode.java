package dev.opcua.cli.nodeset;

import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import java.util.List;
import java.util.Map;

/**
 * A node as read from a server: its class, the attributes it answered Good for (by attribute id, Part 3, 5.9),
 * and its references.
 */
record BrowsedNode(NodeId nodeId, NodeClass nodeClass, Map<Integer, Variant> attributes, List<Reference> references) {

    /** A reference of the node: its type, direction and the other end. */
    record Reference(NodeId referenceType, boolean forward, ExpandedNodeId target) {
    }

    Variant attribute(int attributeId) {
        return attributes.get(attributeId);
    }
}
