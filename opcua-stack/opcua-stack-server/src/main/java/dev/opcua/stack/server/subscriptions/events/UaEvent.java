package dev.opcua.stack.server.subscriptions.events;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One occurrence of an event (Part 3, 4.7; Part 5, 6.4.2 BaseEventType): an immutable set of field
 * values keyed by {@link FieldPath}.
 *
 * <p>The BaseEventType fields (EventId, EventType, SourceNode, SourceName, Time, ReceiveTime, Message,
 * Severity) sit in fixed slots, so a select or where clause reads them without hashing; fields of
 * subtypes (AuditEventType's ClientUserId, a condition's {@code EnabledState/Id} ...) sit in an
 * immutable map. Values are held as Variants, so selecting a field allocates nothing. An event may
 * also name its own node (a condition's ConditionId), selected with an empty browse path and the
 * NodeId attribute.
 */
public final class UaEvent {

    private static final long ID_PREFIX = new SecureRandom().nextLong();
    private static final AtomicLong ID_COUNTER = new AtomicLong();

    private final NodeId eventType;
    private final Variant[] standard;
    private final Map<FieldPath, Variant> fields;
    private final Variant nodeId;

    private UaEvent(Builder b) {
        this.eventType = b.eventType;
        this.standard = b.standard.clone();
        this.fields = Map.copyOf(b.fields);
        this.nodeId = b.nodeId == null ? Variant.NULL : Variant.of(b.nodeId);
    }

    /** A builder for an event of this type (BaseEventType or a subtype). */
    public static Builder builder(NodeId eventType) {
        return new Builder(eventType);
    }

    /**
     * A new EventId: 16 bytes, a random prefix per process and a counter, so ids are unique within
     * the process and, with overwhelming probability, across restarts (Part 5, 6.4.2).
     */
    public static ByteString newEventId() {
        long n = ID_COUNTER.incrementAndGet();
        byte[] id = new byte[16];
        for (int i = 0; i < 8; i++) {
            id[i] = (byte) (ID_PREFIX >>> (56 - 8 * i));
            id[8 + i] = (byte) (n >>> (56 - 8 * i));
        }
        return ByteString.wrap(id);
    }

    /**
     * The value of a field, or {@link Variant#NULL} when the event does not have it. The empty path
     * answers null too: the event's node is {@link #nodeIdVariant()}.
     */
    public Variant field(FieldPath path) {
        int slot = path.slot();
        if (slot >= 0) {
            return standard[slot];
        }
        Variant value = fields.get(path);
        return value == null ? Variant.NULL : value;
    }

    /** Whether the event has a value for this field. */
    public boolean hasField(FieldPath path) {
        return path.slot() >= 0 || fields.containsKey(path);
    }

    /** The paths of the fields beyond BaseEventType's. */
    public Set<FieldPath> extraFields() {
        return fields.keySet();
    }

    public ByteString eventId() {
        return (ByteString) standard[FieldPath.EVENT_ID.slot()].value();
    }

    public NodeId eventType() {
        return eventType;
    }

    public NodeId sourceNode() {
        return (NodeId) standard[FieldPath.SOURCE_NODE.slot()].value();
    }

    public String sourceName() {
        return (String) standard[FieldPath.SOURCE_NAME.slot()].value();
    }

    public DateTime time() {
        return (DateTime) standard[FieldPath.TIME.slot()].value();
    }

    public DateTime receiveTime() {
        return (DateTime) standard[FieldPath.RECEIVE_TIME.slot()].value();
    }

    public LocalizedText message() {
        return (LocalizedText) standard[FieldPath.MESSAGE.slot()].value();
    }

    /** Severity, 1 (lowest) to 1000 (highest). */
    public int severity() {
        return (Integer) standard[FieldPath.SEVERITY.slot()].value();
    }

    /** The NodeId of the event's own node (a condition's ConditionId), or null when it has none. */
    public NodeId nodeId() {
        return (NodeId) nodeId.value();
    }

    /** {@link #nodeId()} as a Variant; {@link Variant#NULL} when the event has no node. */
    public Variant nodeIdVariant() {
        return nodeId;
    }

    @Override
    public String toString() {
        return "UaEvent[" + eventType + " from " + sourceNode() + " severity " + severity() + ": " + message().text()
                + (fields.isEmpty() ? "" : " " + fields) + "]";
    }

    /**
     * Collects the fields of one event. EventId, Time and ReceiveTime default to a new id and the time
     * of {@link #build()}; SourceNode, SourceName, Message and Severity are mandatory (Part 5, 6.4.2) and
     * must be set. Not thread-safe; may be reused after {@code build()}.
     */
    public static final class Builder {

        private final NodeId eventType;
        private final Variant[] standard = new Variant[FieldPath.STANDARD_SLOTS];
        private final Map<FieldPath, Variant> fields = new HashMap<>();
        private NodeId nodeId;

        private Builder(NodeId eventType) {
            Objects.requireNonNull(eventType, "eventType");
            if (eventType.isNull()) {
                throw new IllegalArgumentException("an event needs an EventType, not the null NodeId");
            }
            this.eventType = eventType;
            standard[FieldPath.EVENT_TYPE.slot()] = Variant.of(eventType);
        }

        /** Sets the EventId; by default each build creates a new one ({@link #newEventId()}). */
        public Builder eventId(ByteString eventId) {
            Objects.requireNonNull(eventId, "eventId");
            if (eventId.length() <= 0) {
                throw new IllegalArgumentException("EventId must not be null or empty");
            }
            return slot(FieldPath.EVENT_ID, Variant.of(eventId));
        }

        /** The node the event originated from (the Server object for server events). */
        public Builder sourceNode(NodeId sourceNode) {
            return slot(FieldPath.SOURCE_NODE, Variant.of(Objects.requireNonNull(sourceNode, "sourceNode")));
        }

        /** The BrowseName (text) of the source node. */
        public Builder sourceName(String sourceName) {
            return slot(FieldPath.SOURCE_NAME, Variant.ofString(Objects.requireNonNull(sourceName, "sourceName")));
        }

        /** When the event occurred; defaults to the time of {@link #build()}. */
        public Builder time(DateTime time) {
            return slot(FieldPath.TIME, Variant.of(Objects.requireNonNull(time, "time")));
        }

        /** When the server received the event; defaults to the time of {@link #build()}. */
        public Builder receiveTime(DateTime receiveTime) {
            return slot(FieldPath.RECEIVE_TIME, Variant.of(Objects.requireNonNull(receiveTime, "receiveTime")));
        }

        public Builder message(LocalizedText message) {
            return slot(FieldPath.MESSAGE, Variant.of(Objects.requireNonNull(message, "message")));
        }

        /** A message without a locale. */
        public Builder message(String text) {
            return message(LocalizedText.of(Objects.requireNonNull(text, "message")));
        }

        /** @param severity 1 (lowest) to 1000 (highest) */
        public Builder severity(int severity) {
            if (severity < 1 || severity > 1000) {
                throw new IllegalArgumentException("Severity " + severity + " is outside 1..1000 (Part 5, 6.4.2)");
            }
            return slot(FieldPath.SEVERITY, Variant.ofUInt16(severity));
        }

        /** The event's own node, such as a condition's ConditionId; none by default. */
        public Builder nodeId(NodeId nodeId) {
            this.nodeId = nodeId;
            return this;
        }

        /**
         * Sets a field by its browse path. A BaseEventType field must hold its DataType (EventId a
         * ByteString, Severity a UInt16 ...); EventType is fixed by {@link UaEvent#builder}. A null
         * value removes the field.
         */
        public Builder field(FieldPath path, Variant value) {
            Objects.requireNonNull(path, "path");
            if (path.isEmpty()) {
                throw new IllegalArgumentException("the empty path names the event's node: use nodeId(...)");
            }
            int slot = path.slot();
            if (slot < 0) {
                if (value == null || value.isNull()) {
                    fields.remove(path);
                } else {
                    fields.put(path, value);
                }
                return this;
            }
            if (path == FieldPath.EVENT_TYPE) {
                throw new IllegalArgumentException("EventType is set by UaEvent.builder(eventType)");
            }
            Objects.requireNonNull(value, path + " value");
            BuiltinType expected = switch (slot) {
                case 0 -> BuiltinType.ByteString;
                case 2 -> BuiltinType.NodeId;
                case 3 -> BuiltinType.String;
                case 4, 5 -> BuiltinType.DateTime;
                case 6 -> BuiltinType.LocalizedText;
                default -> BuiltinType.UInt16;
            };
            if (value.type() != expected || value.isArray()) {
                throw new IllegalArgumentException(path + " holds a scalar " + expected + ", not " + value);
            }
            if (path == FieldPath.SEVERITY) {
                return severity((Integer) value.value());
            }
            if (path == FieldPath.EVENT_ID) {
                return eventId((ByteString) value.value());
            }
            return slot(path, value);
        }

        /** Sets a field whose path is one namespace 0 BrowseName, such as AuditEventType's {@code ClientUserId}. */
        public Builder field(String ns0Name, Variant value) {
            return field(FieldPath.of(ns0Name), value);
        }

        private Builder slot(FieldPath path, Variant value) {
            standard[path.slot()] = value;
            return this;
        }

        /**
         * The event.
         *
         * @throws IllegalStateException naming the mandatory fields not set
         */
        public UaEvent build() {
            List<String> missing = new ArrayList<>(0);
            for (FieldPath path : new FieldPath[] {FieldPath.SOURCE_NODE, FieldPath.SOURCE_NAME, FieldPath.MESSAGE,
                    FieldPath.SEVERITY}) {
                if (standard[path.slot()] == null) {
                    missing.add(path.toString());
                }
            }
            if (!missing.isEmpty()) {
                throw new IllegalStateException("an event of type " + eventType + " needs the mandatory fields "
                        + String.join(", ", missing) + " (Part 5, 6.4.2)");
            }
            boolean generatedId = standard[FieldPath.EVENT_ID.slot()] == null;
            if (generatedId) {
                standard[FieldPath.EVENT_ID.slot()] = Variant.of(newEventId());
            }
            boolean noTime = standard[FieldPath.TIME.slot()] == null;
            boolean noReceiveTime = standard[FieldPath.RECEIVE_TIME.slot()] == null;
            if (noTime || noReceiveTime) {
                Variant now = Variant.of(DateTime.now());
                standard[FieldPath.TIME.slot()] = noTime ? now : standard[FieldPath.TIME.slot()];
                standard[FieldPath.RECEIVE_TIME.slot()] = noReceiveTime ? now : standard[FieldPath.RECEIVE_TIME.slot()];
            }
            UaEvent event = new UaEvent(this);
            // A reused builder must not hand the same generated id or time to its next event.
            if (generatedId) {
                standard[FieldPath.EVENT_ID.slot()] = null;
            }
            if (noTime) {
                standard[FieldPath.TIME.slot()] = null;
            }
            if (noReceiveTime) {
                standard[FieldPath.RECEIVE_TIME.slot()] = null;
            }
            return event;
        }
    }
}
