package dev.opcua.benchmarks.load;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.FilterOperator;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.structured.ContentFilter;
import dev.opcua.stack.core.types.structured.ContentFilterElement;
import dev.opcua.stack.core.types.structured.EventFieldList;
import dev.opcua.stack.core.types.structured.EventFilter;
import dev.opcua.stack.core.types.structured.LiteralOperand;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateRequest;
import dev.opcua.stack.core.types.structured.MonitoringParameters;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.SimpleAttributeOperand;

/**
 * The monitored items the {@code sub} and {@code events} scenarios create (Part 4, 5.12.2): a
 * data-change item on a variable's Value with the default filter, or an event item on the Server
 * object's EventNotifier with an EventFilter (Part 4, 7.22.3) selecting six BaseEventType fields
 * where Severity is above 100.
 */
final class ItemRequests {

    private static final NodeId BASE_EVENT_TYPE = NodeId.ns0(NodeIds.BaseEventType);
    private static final String[] SELECTED = {"EventId", "EventType", "SourceNode", "Time", "Message", "Severity"};
    /** Where the Message is among the event fields of a notification. */
    static final int MESSAGE_FIELD = 4;
    private static final ExtensionObject EVENT_FILTER = ExtensionObject.of(new EventFilter(select(),
            new ContentFilter(new ContentFilterElement[] {new ContentFilterElement(FilterOperator.GreaterThan,
                    new ExtensionObject[] {ExtensionObject.of(field("Severity")),
                        ExtensionObject.of(new LiteralOperand(Variant.ofUInt16(100)))})})));

    private ItemRequests() {
    }

    /**
     * A data-change item on {@code node}'s Value, Reporting, discarding the oldest value, with
     * {@link #queueSize(double, double)}.
     */
    static MonitoredItemCreateRequest dataChange(NodeId node, int clientHandle, double publishingMs,
            double samplingMs) {
        return dataChangeQueued(node, clientHandle, samplingMs, queueSize(publishingMs, samplingMs));
    }

    /**
     * A data-change item on {@code node}'s Value, Reporting, discarding the oldest value, of {@code queueSize}. Named
     * apart from {@link #dataChange}: as an overload, a call with two {@code int} intervals bound to this one.
     */
    static MonitoredItemCreateRequest dataChangeQueued(NodeId node, int clientHandle, double samplingMs,
            long queueSize) {
        return new MonitoredItemCreateRequest(new ReadValueId(node, AttributeIds.Value, null, QualifiedName.NULL),
                MonitoringMode.Reporting, new MonitoringParameters(clientHandle, samplingMs, ExtensionObject.NULL,
                        queueSize, true));
    }

    /**
     * Room for every sample of one publishing interval and one more, so that a value sampled just
     * before a late publishing cycle is not discarded: 2 when sampling and publishing intervals are
     * equal. A sampling interval of 0 is counted as 10 ms.
     */
    static long queueSize(double publishingMs, double samplingMs) {
        return Math.min(100, (long) Math.ceil(publishingMs / Math.max(10, samplingMs)) + 1);
    }

    /** An event item on the Server object with room for four publishing intervals of {@code eventsPerSecond}. */
    static MonitoredItemCreateRequest event(int clientHandle, double publishingMs, double eventsPerSecond) {
        long queue = Math.max(100, Math.min(10_000, (long) Math.ceil(4 * eventsPerSecond * publishingMs / 1000)));
        return new MonitoredItemCreateRequest(new ReadValueId(NodeId.ns0(NodeIds.Server), AttributeIds.EventNotifier,
                null, QualifiedName.NULL), MonitoringMode.Reporting,
                new MonitoringParameters(clientHandle, 0, EVENT_FILTER, queue, true));
    }

    /** The Message text of an event notification of {@link #event}, or null when it has none. */
    static String message(EventFieldList event) {
        Variant[] fields = event.eventFields();
        if (fields == null || fields.length <= MESSAGE_FIELD) {
            return null;
        }
        return fields[MESSAGE_FIELD].value() instanceof LocalizedText text ? text.text() : null;
    }

    private static SimpleAttributeOperand[] select() {
        SimpleAttributeOperand[] select = new SimpleAttributeOperand[SELECTED.length];
        for (int i = 0; i < select.length; i++) {
            select[i] = field(SELECTED[i]);
        }
        return select;
    }

    private static SimpleAttributeOperand field(String name) {
        return new SimpleAttributeOperand(BASE_EVENT_TYPE, new QualifiedName[] {QualifiedName.of(0, name)},
                AttributeIds.Value, null);
    }
}
