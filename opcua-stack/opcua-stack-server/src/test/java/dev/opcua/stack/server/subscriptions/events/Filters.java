package dev.opcua.stack.server.subscriptions.events;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.FilterOperator;
import dev.opcua.stack.core.types.structured.ContentFilter;
import dev.opcua.stack.core.types.structured.ContentFilterElement;
import dev.opcua.stack.core.types.structured.ElementOperand;
import dev.opcua.stack.core.types.structured.EventFilter;
import dev.opcua.stack.core.types.structured.LiteralOperand;
import dev.opcua.stack.core.types.structured.SimpleAttributeOperand;
import dev.opcua.stack.server.namespace0.Namespace0Loader;

/** Builders for EventFilters and events in tests, and the namespace 0 type tree loaded once per JVM. */
final class Filters {

    static final NodeId BASE_EVENT_TYPE = NodeId.ns0(NodeIds.BaseEventType);
    static final NodeId AUDIT_EVENT_TYPE = NodeId.ns0(NodeIds.AuditEventType);
    static final NodeId AUDIT_SECURITY_EVENT_TYPE = NodeId.ns0(NodeIds.AuditSecurityEventType);
    static final NodeId SYSTEM_EVENT_TYPE = NodeId.ns0(NodeIds.SystemEventType);
    static final NodeId CONDITION_TYPE = NodeId.ns0(NodeIds.ConditionType);
    static final NodeId SERVER = NodeId.ns0(NodeIds.Server);

    private static EventTypeTree ns0;

    private Filters() {
    }

    /** The ObjectTypes of namespace 0 (the loader takes about half a second: shared by the test classes). */
    static synchronized EventTypeTree ns0() {
        if (ns0 == null) {
            ns0 = EventTypeTree.of(Namespace0Loader.load());
        }
        return ns0;
    }

    static ExtensionObject eo(UaStructure operand) {
        return ExtensionObject.of(operand);
    }

    /** A field of any event: typeDefinitionId BaseEventType, the Value attribute. */
    static SimpleAttributeOperand field(String... path) {
        return field(BASE_EVENT_TYPE, path);
    }

    static SimpleAttributeOperand field(NodeId type, String... path) {
        QualifiedName[] names = new QualifiedName[path.length];
        for (int i = 0; i < path.length; i++) {
            names[i] = QualifiedName.of(0, path[i]);
        }
        return new SimpleAttributeOperand(type, names, AttributeIds.Value, null);
    }

    static ExtensionObject f(String... path) {
        return eo(field(path));
    }

    static ExtensionObject lit(Variant value) {
        return eo(new LiteralOperand(value));
    }

    static ExtensionObject lit(Object value) {
        return lit(Variant.of(value));
    }

    static ExtensionObject el(long index) {
        return eo(new ElementOperand(index));
    }

    static ContentFilterElement op(FilterOperator operator, ExtensionObject... operands) {
        return new ContentFilterElement(operator, operands);
    }

    static ContentFilter where(ContentFilterElement... elements) {
        return new ContentFilter(elements);
    }

    /** Selects EventId, EventType, Severity and Message; the where clause as given (null for none). */
    static EventFilter filter(ContentFilter where) {
        return new EventFilter(new SimpleAttributeOperand[] {field("EventId"), field("EventType"), field("Severity"),
                field("Message")}, where);
    }

    static EventFilterEvaluator compile(ContentFilterElement... elements) {
        return EventFilterEvaluator.compile(filter(where(elements)), ns0());
    }

    /** A BaseEventType event from the Server object with this severity. */
    static UaEvent.Builder event(int severity) {
        return event(BASE_EVENT_TYPE, severity);
    }

    static UaEvent.Builder event(NodeId type, int severity) {
        return UaEvent.builder(type).sourceNode(SERVER).sourceName("Server").message("test event").severity(severity);
    }
}
