package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.DeadbandType;
import dev.opcua.stack.core.types.structured.AggregateFilter;
import dev.opcua.stack.core.types.structured.DataChangeFilter;
import dev.opcua.stack.core.types.structured.EventFilter;
import dev.opcua.stack.core.types.structured.MonitoringFilter;
import dev.opcua.stack.core.types.structured.Range;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.nodes.NumericRange;

/**
 * The per-operation checks of CreateMonitoredItems and ModifyMonitoredItems (Part 4, 5.12.2.4 and
 * 5.12.3.4) that need no address space, and the interpretation of the reads that do.
 *
 * <table>
 *   <caption>Filter statuses</caption>
 *   <tr><td>EventFilter on any attribute but EventNotifier</td><td>BadFilterNotAllowed</td></tr>
 *   <tr><td>EventNotifier on a server without events, AggregateFilter, a filter of an unknown
 *       encoding</td><td>BadMonitoredItemFilterUnsupported</td></tr>
 *   <tr><td>a filter body that is no MonitoringFilter, a DataChangeFilter without trigger</td>
 *       <td>BadMonitoredItemFilterInvalid</td></tr>
 *   <tr><td>DataChangeFilter or AggregateFilter on EventNotifier; a deadband on another attribute
 *       than Value, on a value that is not a number, or a percent deadband on a variable without a
 *       usable EURange</td><td>BadFilterNotAllowed</td></tr>
 *   <tr><td>unknown deadbandType; negative or infinite deadbandValue; percent above 100 (Part 8, 6.2)</td>
 *       <td>BadDeadbandFilterInvalid</td></tr>
 *   <tr><td>EventNotifier without an EventFilter, or with one the
 *       {@link dev.opcua.stack.server.subscriptions.events.EventFilterEvaluator} refuses</td>
 *       <td>BadEventFilterInvalid</td></tr>
 *   <tr><td>EventNotifier with an index range (the attribute is a scalar Byte)</td>
 *       <td>BadIndexRangeInvalid</td></tr>
 *   <tr><td>EventNotifier of a node whose EventNotifier lacks SubscribeToEvents</td>
 *       <td>BadNotSupported</td></tr>
 * </table>
 */
final class ItemChecks {

    /** EventNotifier bit 0 (Part 3, 8.59 EventNotifierType). */
    static final int SUBSCRIBE_TO_EVENTS = 0x01;

    private ItemChecks() {
    }

    /** BadNodeIdInvalid, BadAttributeIdInvalid or BadIndexRangeInvalid for a malformed ReadValueId, else Good. */
    static int checkItemToMonitor(ReadValueId item) {
        if (item == null || item.nodeId() == null || item.nodeId().isNull()) {
            return StatusCodes.BadNodeIdInvalid;
        }
        long attribute = item.attributeId();
        if (attribute < 1 || attribute > Integer.MAX_VALUE || AttributeIds.name((int) attribute) == null) {
            return StatusCodes.BadAttributeIdInvalid;
        }
        try {
            NumericRange.parse(item.indexRange());
        } catch (UaException e) {
            return e.statusCode().value();
        }
        return StatusCodes.Good;
    }

    /** The parsed index range of a checked item, or null. */
    static NumericRange indexRange(ReadValueId item) {
        return NumericRange.parse(item.indexRange());
    }

    /**
     * Checks the requested filter against the attribute, see the class comment.
     *
     * @param out receives the DataChangeFilter (null for none) when the filter is accepted
     * @return Good or the status of the operation
     */
    static int checkFilter(ExtensionObject filter, long attributeId, DataChangeFilter[] out) {
        out[0] = null;
        boolean events = attributeId == AttributeIds.EventNotifier;
        if (filter == null || filter.isNull()) {
            return events ? StatusCodes.BadMonitoredItemFilterUnsupported : StatusCodes.Good;
        }
        UaStructure body = filter.decoded();
        if (body == null) {
            return StatusCodes.BadMonitoredItemFilterUnsupported;
        }
        if (body instanceof EventFilter) {
            return events ? StatusCodes.BadMonitoredItemFilterUnsupported : StatusCodes.BadFilterNotAllowed;
        }
        if (!(body instanceof MonitoringFilter)) {
            return StatusCodes.BadMonitoredItemFilterInvalid;
        }
        if (events) {
            return StatusCodes.BadFilterNotAllowed;
        }
        if (body instanceof AggregateFilter || !(body instanceof DataChangeFilter dataChange)) {
            return StatusCodes.BadMonitoredItemFilterUnsupported;
        }
        if (dataChange.trigger() == null) {
            return StatusCodes.BadMonitoredItemFilterInvalid;
        }
        DeadbandType type = deadbandType(dataChange);
        if (type == null) {
            return StatusCodes.BadDeadbandFilterInvalid;
        }
        if (type != DeadbandType.None) {
            if (attributeId != AttributeIds.Value) {
                return StatusCodes.BadFilterNotAllowed;
            }
            double value = dataChange.deadbandValue();
            if (!(value >= 0) || Double.isInfinite(value) || type == DeadbandType.Percent && value > 100) {
                return StatusCodes.BadDeadbandFilterInvalid;
            }
        }
        out[0] = dataChange;
        return StatusCodes.Good;
    }

    /**
     * Checks the filter of an event item on a server that serves events, see the class comment.
     *
     * @param out receives the EventFilter when the body is one
     * @return Good or the status of the operation
     */
    static int checkEventFilter(ExtensionObject filter, ReadValueId item, EventFilter[] out) {
        out[0] = null;
        if (item.indexRange() != null && !item.indexRange().isEmpty()) {
            return StatusCodes.BadIndexRangeInvalid;
        }
        if (filter == null || filter.isNull()) {
            return StatusCodes.BadEventFilterInvalid;
        }
        UaStructure body = filter.decoded();
        if (body == null) {
            return StatusCodes.BadMonitoredItemFilterUnsupported;
        }
        if (body instanceof EventFilter eventFilter) {
            out[0] = eventFilter;
            return StatusCodes.Good;
        }
        return body instanceof MonitoringFilter ? StatusCodes.BadFilterNotAllowed
                : StatusCodes.BadMonitoredItemFilterInvalid;
    }

    /**
     * The status that makes an event item fail from the validating read of the EventNotifier
     * attribute: the read's own (BadNodeIdUnknown, BadAttributeIdInvalid for a node that has no
     * EventNotifier ...), or BadNotSupported when SubscribeToEvents (bit 0, Part 3, 8.59) is not set.
     */
    static int checkNotifier(DataValue result) {
        int code = result.statusCode().value() & 0xFFFF0000;
        if (code != StatusCodes.Good && (code & 0x80000000) != 0) {
            return code;
        }
        Variant value = result.value();
        if (value == null || value.isArray() || !(value.value() instanceof Number bits)) {
            return StatusCodes.BadNotSupported;
        }
        return (bits.intValue() & SUBSCRIBE_TO_EVENTS) != 0 ? StatusCodes.Good : StatusCodes.BadNotSupported;
    }

    /** The DeadbandType of a filter, or null when its UInt32 is no known type. */
    static DeadbandType deadbandType(DataChangeFilter filter) {
        long type = filter.deadbandType();
        return type < 0 || type > 2 ? null : DeadbandType.fromValue((int) type);
    }

    /**
     * The status that makes creation fail from the validating read (Part 4, 5.12.2: a node that is
     * not readable now, or an index range without data now, still gives an item), else Good.
     */
    static int checkRead(DataValue result) {
        int code = result.statusCode().value() & 0xFFFF0000;
        return switch (code) {
            case StatusCodes.BadNodeIdUnknown, StatusCodes.BadNodeIdInvalid, StatusCodes.BadAttributeIdInvalid,
                    StatusCodes.BadIndexRangeInvalid, StatusCodes.BadDataEncodingInvalid,
                    StatusCodes.BadDataEncodingUnsupported,
                    // the session's roles lack Read (Part 3, 8.55): it may not monitor what it may not read
                    StatusCodes.BadUserAccessDenied -> code;
            default -> StatusCodes.Good;
        };
    }

    /**
     * BadFilterNotAllowed when a deadband is asked for a value that is not a number or an array of
     * numbers (Part 4, 7.22.2: "applies only to Variables with any Number data type"). A value not
     * readable now, or empty, is not held against the item.
     */
    static int checkDeadbandValue(DataChangeFilter filter, DataValue current) {
        if (filter == null || deadbandType(filter) == DeadbandType.None || current == null
                || !current.statusCode().isGood()) {
            return StatusCodes.Good;
        }
        Variant value = current.value();
        return value.isNull() || ChangeFilter.isNumeric(value) ? StatusCodes.Good : StatusCodes.BadFilterNotAllowed;
    }

    /** The filter to apply; {@code euRange} is the item's EURange for a percent deadband. */
    static ChangeFilter compile(DataChangeFilter filter, Range euRange) {
        if (filter == null) {
            return ChangeFilter.DEFAULT;
        }
        DeadbandType type = deadbandType(filter);
        double deadband = switch (type) {
            case None -> 0;
            case Absolute -> filter.deadbandValue();
            case Percent -> filter.deadbandValue() / 100.0 * (euRange.high() - euRange.low());
        };
        return new ChangeFilter(filter.trigger(), type, deadband);
    }

    /** Whether the filter needs the item's EURange. */
    static boolean needsEuRange(DataChangeFilter filter) {
        return filter != null && deadbandType(filter) == DeadbandType.Percent;
    }
}
