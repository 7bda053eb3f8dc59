package dev.opcua.stack.pubsub.config;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.structured.SimpleAttributeOperand;
import java.util.Objects;

/**
 * One selected field of a published events data set (Part 14, 6.2.3.3 PublishedEventsDataType SelectedFields):
 * its name in the data set, the SimpleAttributeOperand that selects it from each event (Part 4, 7.7.4.5) and its
 * type, which goes into the DataSetMetaData.
 *
 * @param name the field's name (the JSON member name, the metadata's FieldMetaData name)
 * @param select which field of the event: an event type, a browse path and the Value attribute (or the empty path
 *        and the NodeId attribute for the event's own node)
 * @param builtInType the field's built-in type
 * @param valueRank -1 scalar, 1 one-dimensional array
 */
public record PublishedEventField(String name, SimpleAttributeOperand select, BuiltinType builtInType, int valueRank) {

    /** BaseEventType (i=2041). */
    public static final NodeId BASE_EVENT_TYPE = NodeId.ns0(NodeIds.BaseEventType);

    public PublishedEventField {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a published event field needs a name");
        }
        Objects.requireNonNull(select, "select operand of event field " + name);
        Objects.requireNonNull(builtInType, "builtInType of event field " + name);
        if (valueRank != -1 && valueRank != 1) {
            throw new IllegalArgumentException("event field " + name + ": ValueRank -1 (scalar) or 1 (array), was "
                    + valueRank);
        }
    }

    /**
     * A field of BaseEventType by its browse name, typed as Part 5, 6.4.2 declares it: EventId (ByteString),
     * EventType and SourceNode (NodeId), SourceName (String), Time and ReceiveTime (DateTime), LocalTime
     * (TimeZoneDataType, an ExtensionObject), Message (LocalizedText), Severity (UInt16).
     *
     * @throws IllegalArgumentException for another name: use {@link #of(String, NodeId, BuiltinType, String...)}
     */
    public static PublishedEventField base(String browseName) {
        BuiltinType type = switch (browseName) {
            case "EventId" -> BuiltinType.ByteString;
            case "EventType", "SourceNode" -> BuiltinType.NodeId;
            case "SourceName" -> BuiltinType.String;
            case "Time", "ReceiveTime" -> BuiltinType.DateTime;
            case "LocalTime" -> BuiltinType.ExtensionObject;
            case "Message" -> BuiltinType.LocalizedText;
            case "Severity" -> BuiltinType.UInt16;
            default -> throw new IllegalArgumentException(browseName + " is not a field of BaseEventType (EventId,"
                    + " EventType, SourceNode, SourceName, Time, ReceiveTime, LocalTime, Message, Severity)");
        };
        return of(browseName, BASE_EVENT_TYPE, type, browseName);
    }

    /**
     * A scalar field selected by a browse path of namespace 0 names from events of the type (or its subtypes),
     * e.g. {@code of("Active", AlarmConditionType, Boolean, "ActiveState", "Id")}.
     */
    public static PublishedEventField of(String name, NodeId eventType, BuiltinType builtInType, String... browsePath) {
        QualifiedName[] path = new QualifiedName[browsePath.length];
        for (int i = 0; i < path.length; i++) {
            path[i] = QualifiedName.of(0, browsePath[i]);
        }
        return new PublishedEventField(name, new SimpleAttributeOperand(eventType, path, AttributeIds.Value, null),
                builtInType, -1);
    }
}
