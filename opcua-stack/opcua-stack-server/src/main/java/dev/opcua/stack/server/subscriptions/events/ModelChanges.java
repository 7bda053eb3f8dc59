package dev.opcua.stack.server.subscriptions.events;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.ModelChangeStructureDataType;
import java.util.List;
import java.util.Objects;

/**
 * Reports changes of the address space structure as GeneralModelChangeEventType events (Part 3,
 * 9.32; Part 5, 6.4.32 and 12.16) on the Server object, so that clients that cache the address
 * space (browse trees, HMIs) know to browse again. A node manager whose nodes come and go at run
 * time calls it after the change is visible to Browse; one call may carry many changes (the event
 * compression of Part 3, 9.32.7). A static address space never needs it.
 */
public final class ModelChanges {

    /** Verb bits of ModelChangeStructureDataType (Part 5, 12.16). */
    public static final short NODE_ADDED = 1;
    public static final short NODE_DELETED = 1 << 1;
    public static final short REFERENCE_ADDED = 1 << 2;
    public static final short REFERENCE_DELETED = 1 << 3;
    public static final short DATA_TYPE_CHANGED = 1 << 4;

    private static final NodeId EVENT_TYPE = NodeId.ns0(NodeIds.GeneralModelChangeEventType);
    /** Informational: the structure changed, nothing failed. */
    private static final int SEVERITY = 100;

    private final EventSink sink;
    private final EventTypeTree eventTypes;
    private final java.util.List<Runnable> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Runs {@code listener} after each {@link #report}, e.g. to forget what was derived from the structure. */
    public void onReport(Runnable listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    public ModelChanges(EventSink sink, EventTypeTree eventTypes) {
        this.sink = Objects.requireNonNull(sink, "sink");
        this.eventTypes = Objects.requireNonNull(eventTypes, "eventTypes");
    }

    /**
     * Reports the changes as one event.
     *
     * @param changes at least one: the affected node, its TypeDefinition for an Object or Variable
     *        (else NodeId.NULL), and the verb bits
     * @throws IllegalArgumentException when {@code changes} is empty or a verb has reserved bits set
     */
    public void report(List<ModelChangeStructureDataType> changes) {
        if (changes.isEmpty()) {
            throw new IllegalArgumentException("a GeneralModelChangeEvent carries at least one change (Part 5, 6.4.32)");
        }
        ExtensionObject[] encoded = new ExtensionObject[changes.size()];
        for (int i = 0; i < encoded.length; i++) {
            ModelChangeStructureDataType change = changes.get(i);
            if ((change.verb() & ~0x1F) != 0 || change.verb() == 0) {
                throw new IllegalArgumentException("verb 0x" + Integer.toHexString(change.verb()) + " of the change of "
                        + change.affected() + ": set one or more of bits 0..4 (NodeAdded .. DataTypeChanged), no others");
            }
            encoded[i] = ExtensionObject.of(change);
        }
        listeners.forEach(Runnable::run);
        if (!eventTypes.isKnown(EVENT_TYPE)) {
            return;
        }
        sink.report(EventNotifierRegistry.SERVER_OBJECT, UaEvent.builder(EVENT_TYPE)
                .sourceNode(EventNotifierRegistry.SERVER_OBJECT)
                .sourceName("Server")
                .message(changes.size() == 1 ? "the address space changed: " + describe(changes.get(0))
                        : "the address space changed: " + changes.size() + " changes")
                .severity(SEVERITY)
                .field("Changes", Variant.ofArray(BuiltinType.ExtensionObject, encoded))
                .build());
    }

    private static String describe(ModelChangeStructureDataType change) {
        StringBuilder verbs = new StringBuilder();
        String[] names = {"NodeAdded", "NodeDeleted", "ReferenceAdded", "ReferenceDeleted", "DataTypeChanged"};
        for (int bit = 0; bit < names.length; bit++) {
            if ((change.verb() & (1 << bit)) != 0) {
                verbs.append(verbs.length() == 0 ? "" : "|").append(names[bit]);
            }
        }
        return verbs + " " + change.affected();
    }
}
