package dev.opcua.stack.server.addressspace;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.NodeClass;

/** An Object node (Part 3, 5.5.1). */
public class ObjectNode extends UaNode {

    private static final int HISTORY_READ = 0x04;
    private static final int HISTORY_WRITE = 0x08;

    private volatile short eventNotifier;

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

    /**
     * Sets the EventNotifier bits HistoryRead and, when {@code writable}, HistoryWrite (Part 3, 8.59): the object
     * offers its event history (Part 11, 5.2.4 HistoricalEventNodes), recorded by the server.
     */
    public void setEventHistoryAccess(boolean writable) {
        int cleared = eventNotifier & ~(HISTORY_READ | HISTORY_WRITE);
        eventNotifier = (short) (cleared | HISTORY_READ | (writable ? HISTORY_WRITE : 0));
    }

    @Override
    public Variant attribute(int attributeId) {
        if (attributeId == AttributeIds.EventNotifier) {
            return Variant.ofByte(eventNotifier);
        }
        return super.attribute(attributeId);
    }
}
