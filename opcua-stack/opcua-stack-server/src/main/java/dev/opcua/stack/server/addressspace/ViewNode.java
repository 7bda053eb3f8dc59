package dev.opcua.stack.server.addressspace;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.NodeClass;

/** A View node (Part 3, 5.4). */
public class ViewNode extends UaNode {

    private final boolean containsNoLoops;
    private final short eventNotifier;

    public ViewNode(NodeId nodeId, QualifiedName browseName, LocalizedText displayName, LocalizedText description,
            long writeMask, long userWriteMask, boolean containsNoLoops, short eventNotifier) {
        super(nodeId, browseName, displayName, description, writeMask, userWriteMask);
        this.containsNoLoops = containsNoLoops;
        this.eventNotifier = eventNotifier;
    }

    @Override
    public NodeClass nodeClass() {
        return NodeClass.View;
    }

    public boolean containsNoLoops() {
        return containsNoLoops;
    }

    public short eventNotifier() {
        return eventNotifier;
    }

    @Override
    public Variant attribute(int attributeId) {
        switch (attributeId) {
            case AttributeIds.ContainsNoLoops:
                return Variant.ofBoolean(containsNoLoops);
            case AttributeIds.EventNotifier:
                return Variant.ofByte(eventNotifier);
            default:
                return super.attribute(attributeId);
        }
    }
}
