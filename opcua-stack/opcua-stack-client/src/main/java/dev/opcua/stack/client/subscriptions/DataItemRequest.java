package dev.opcua.stack.client.subscriptions;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.DataChangeTrigger;
import dev.opcua.stack.core.types.enumerated.DeadbandType;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.structured.DataChangeFilter;
import java.util.Objects;

/**
 * A data item to create (MonitoredItemCreateRequest, Part 4, 7.21): an attribute of a node (Value
 * unless said otherwise), sampling interval, queue, optional DataChangeFilter (7.22.2) and monitoring
 * mode. Build with {@link #of} and the {@code with} methods.
 *
 * @param indexRange NumericRange of an array value (7.27), or null for all of it
 * @param filter null for the server's default (StatusValue trigger, no deadband)
 */
public record DataItemRequest(NodeId node, long attributeId, String indexRange, double samplingInterval,
        long queueSize, boolean discardOldest, DataChangeFilter filter, MonitoringMode monitoringMode,
        DataChangeListener listener) {

    public DataItemRequest {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(monitoringMode, "monitoringMode");
        if (queueSize < 0) {
            throw new IllegalArgumentException("queueSize must be >= 0: " + queueSize);
        }
    }

    /** The Value of {@code node}, sampled every {@code samplingInterval} ms, queue 1, Reporting. */
    public static DataItemRequest of(NodeId node, double samplingInterval, DataChangeListener listener) {
        return new DataItemRequest(node, AttributeIds.Value, null, samplingInterval, 1, true, null,
                MonitoringMode.Reporting, listener);
    }

    public DataItemRequest withAttribute(long attributeId, String indexRange) {
        return new DataItemRequest(node, attributeId, indexRange, samplingInterval, queueSize, discardOldest, filter,
                monitoringMode, listener);
    }

    public DataItemRequest withQueue(long queueSize, boolean discardOldest) {
        return new DataItemRequest(node, attributeId, indexRange, samplingInterval, queueSize, discardOldest, filter,
                monitoringMode, listener);
    }

    public DataItemRequest withFilter(DataChangeFilter filter) {
        return new DataItemRequest(node, attributeId, indexRange, samplingInterval, queueSize, discardOldest, filter,
                monitoringMode, listener);
    }

    /** A change of the value by more than {@code deadband} (absolute) or of the status (Part 8, 6.2). */
    public DataItemRequest withAbsoluteDeadband(double deadband) {
        return withFilter(new DataChangeFilter(DataChangeTrigger.StatusValue, DeadbandType.Absolute.value(), deadband));
    }

    /** A change by more than {@code percent} of the node's EURange (Part 8, 6.2; AnalogItems only). */
    public DataItemRequest withPercentDeadband(double percent) {
        return withFilter(new DataChangeFilter(DataChangeTrigger.StatusValue, DeadbandType.Percent.value(), percent));
    }

    public DataItemRequest withMonitoringMode(MonitoringMode mode) {
        return new DataItemRequest(node, attributeId, indexRange, samplingInterval, queueSize, discardOldest, filter,
                mode, listener);
    }
}
