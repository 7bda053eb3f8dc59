package dev.opcua.spring.boot.client.listener.filter;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.structured.ContentFilter;
import dev.opcua.stack.core.types.structured.EventFilter;
import dev.opcua.stack.core.types.structured.SimpleAttributeOperand;
import java.util.List;

/**
 * Event fields by name for the EventFilter of a listener (Part 4, 7.22.3): a field is a browse name
 * of BaseEventType (Part 5, 6.4.2: EventId, EventType, SourceNode, SourceName, Time, ReceiveTime,
 * Message, Severity) or a path of browse names in namespace 0 separated by '/' to a field of a
 * subtype ({@code EnabledState/Id}), selected as a SimpleAttributeOperand of its Value (7.7.4.5).
 */
public final class EventFields {

    private static final NodeId BASE_EVENT_TYPE = NodeId.ns0(NodeIds.BaseEventType);

    private EventFields() {
    }

    /** The operand of a field, {@code Severity} or {@code EnabledState/Id}. */
    public static SimpleAttributeOperand operand(String field) {
        String[] names = field.split("/", -1);
        QualifiedName[] path = new QualifiedName[names.length];
        for (int i = 0; i < names.length; i++) {
            if (names[i].isBlank()) {
                throw new IllegalArgumentException("the field '" + field + "' has an empty browse name");
            }
            path[i] = QualifiedName.of(0, names[i].strip());
        }
        return new SimpleAttributeOperand(BASE_EVENT_TYPE, path, AttributeIds.Value, null);
    }

    /** The EventFilter selecting {@code fields} in order, reporting the events {@code where} lets through. */
    public static EventFilter filter(List<String> fields, ContentFilter where) {
        SimpleAttributeOperand[] select = new SimpleAttributeOperand[fields.size()];
        for (int i = 0; i < select.length; i++) {
            select[i] = operand(fields.get(i));
        }
        return new EventFilter(select, where);
    }
}
