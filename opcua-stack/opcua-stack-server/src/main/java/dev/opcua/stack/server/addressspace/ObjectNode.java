package dev.opcua.stack.server.addressspace;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.NodeClass;

/** An Object node (Part 3, 5.5.1). */
public class ObjectNode extends UaNode {

    private final short eventNotifier;

    /** @param eventNotifier EventNotifier bits (Byte, Part 3, 8.59) */
    public ObjectNode(NodeId nodeId, QualifiedName browseName, LocalizedText displayName, LocalizedText description,
            long writeMask, long userWriteMask, short eventNotifier) {
        super(nodeId, browseName, displayName, description, writeMask, userWriteMask);
        this.eventNotifier = eventNotifier;
    }

    @Override
    public NodeClass nodeClass() {
        return NodeClass.Object;
    }

    public short eventNotifier() {
        return eventNotifier;
    }

    @Override
    public Variant attribute(int attributeId) {
        if (attributeId == AttributeIds.EventNotifier) {
            return Variant.ofByte(eventNotifier);
        }
        return super.attribute(attributeId);
    }
}
