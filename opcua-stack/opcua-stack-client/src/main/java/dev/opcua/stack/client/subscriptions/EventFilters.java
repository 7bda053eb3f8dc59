package dev.opcua.stack.client.subscriptions;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.FilterOperator;
import dev.opcua.stack.core.types.structured.ContentFilter;
import dev.opcua.stack.core.types.structured.ContentFilterElement;
import dev.opcua.stack.core.types.structured.EventFilter;
import dev.opcua.stack.core.types.structured.LiteralOperand;
import dev.opcua.stack.core.types.structured.SimpleAttributeOperand;

/**
 * Small EventFilters (Part 4, 7.22.3): select clauses naming fields of BaseEventType (Part 5, 6.4.2)
 * by browse name, and the where clause {@code Severity >= n} (a ContentFilter of one
 * GreaterThanOrEqual element, 7.7).
 */
public final class EventFilters {

    private static final NodeId BASE_EVENT_TYPE = NodeId.ns0(NodeIds.BaseEventType);

    private EventFilters() {
    }

    /** Fields of BaseEventType by browse name ("EventId", "EventType", "Time", "Severity", "Message" ...), every event. */
    public static EventFilter select(String... baseEventTypeFields) {
        return new EventFilter(selectClauses(baseEventTypeFields), new ContentFilter(new ContentFilterElement[0]));
    }

    /** {@link #select} reporting only events of at least {@code severity} (1..1000). */
    public static EventFilter selectWhereSeverityAtLeast(int severity, String... baseEventTypeFields) {
        return new EventFilter(selectClauses(baseEventTypeFields), severityAtLeast(severity));
    }

    /** SimpleAttributeOperands of the Value of BaseEventType's properties with these browse names. */
    public static SimpleAttributeOperand[] selectClauses(String... baseEventTypeFields) {
        SimpleAttributeOperand[] clauses = new SimpleAttributeOperand[baseEventTypeFields.length];
        for (int i = 0; i < clauses.length; i++) {
            clauses[i] = field(baseEventTypeFields[i]);
        }
        return clauses;
    }

    /** The operand of one BaseEventType field. */
    public static SimpleAttributeOperand field(String browseName) {
        return new SimpleAttributeOperand(BASE_EVENT_TYPE, new QualifiedName[] {QualifiedName.of(0, browseName)},
                AttributeIds.Value, null);
    }

    /** The where clause {@code Severity >= severity}; the literal is a UInt16 like the field. */
    public static ContentFilter severityAtLeast(int severity) {
        ContentFilterElement element = new ContentFilterElement(FilterOperator.GreaterThanOrEqual,
                new ExtensionObject[] {ExtensionObject.of(field("Severity")),
                        ExtensionObject.of(new LiteralOperand(Variant.ofUInt16(severity)))});
        return new ContentFilter(new ContentFilterElement[] {element});
    }
}
