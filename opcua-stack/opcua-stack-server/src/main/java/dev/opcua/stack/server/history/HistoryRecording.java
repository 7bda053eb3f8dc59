package dev.opcua.stack.server.history;

import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.NodeId;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * What the {@link HistoryRecorder} records and keeps.
 *
 * @param nodes variables to record besides those that say Historizing themselves (in-memory variables
 *        declared historizing), by namespace index or URI ({@code nsu=}, resolved when the server starts);
 *        each gets Historizing and the AccessLevel HistoryRead bit
 * @param historyWritable whether the listed {@code nodes} also get the HistoryWrite bit (HistoryUpdate)
 * @param samplingInterval how often the recorded variables are read, to record values that change
 *        without passing {@link dev.opcua.stack.server.addressspace.VariableNode#setValue} (values of
 *        suppliers, getters, devices); at least 10 ms
 * @param retention how much history the store keeps
 * @param retentionCheckInterval how often the retention is applied; at least 1 s
 * @param eventNotifiers Objects whose events (reported on them or on notifiers below them) are recorded (Part 11,
 *        5.2.4 HistoricalEventNodes), by namespace index or URI; an in-memory one gets the EventNotifier
 *        HistoryRead bit
 * @param eventsWritable whether the {@code eventNotifiers} also get the HistoryWrite bit (HistoryUpdate deletes)
 */
public record HistoryRecording(Set<ExpandedNodeId> nodes, boolean historyWritable, Duration samplingInterval,
        HistoryRetention retention, Duration retentionCheckInterval, Set<ExpandedNodeId> eventNotifiers,
        boolean eventsWritable) {

    /** Only self-declared historizing variables, sampled each second, everything kept, checked each minute, no events. */
    public static final HistoryRecording DEFAULT = new HistoryRecording(Set.of(), false, Duration.ofSeconds(1),
            HistoryRetention.UNLIMITED, Duration.ofMinutes(1));

    /** A recording of variables only, no events. */
    public HistoryRecording(Set<ExpandedNodeId> nodes, boolean historyWritable, Duration samplingInterval,
            HistoryRetention retention, Duration retentionCheckInterval) {
        this(nodes, historyWritable, samplingInterval, retention, retentionCheckInterval, Set.of(), false);
    }

    public HistoryRecording {
        nodes = Set.copyOf(Objects.requireNonNull(nodes, "nodes"));
        eventNotifiers = Set.copyOf(Objects.requireNonNull(eventNotifiers, "eventNotifiers"));
        Objects.requireNonNull(retention, "retention");
        if (samplingInterval == null || samplingInterval.toMillis() < 10) {
            throw new IllegalArgumentException("samplingInterval must be at least 10 ms, was " + samplingInterval);
        }
        if (retentionCheckInterval == null || retentionCheckInterval.toMillis() < 1000) {
            throw new IllegalArgumentException("retentionCheckInterval must be at least 1 s, was "
                    + retentionCheckInterval);
        }
    }

    /** This recording with other nodes. */
    public HistoryRecording withNodes(Set<NodeId> value, boolean writable) {
        Set<ExpandedNodeId> expanded = new java.util.HashSet<>();
        value.forEach(nodeId -> expanded.add(ExpandedNodeId.of(nodeId)));
        return withExpandedNodes(expanded, writable);
    }

    /** This recording with other nodes, given by namespace index or URI. */
    public HistoryRecording withExpandedNodes(Set<ExpandedNodeId> value, boolean writable) {
        return new HistoryRecording(value, writable, samplingInterval, retention, retentionCheckInterval,
                eventNotifiers, eventsWritable);
    }

    /** This recording with the events of these notifiers, given by namespace index or URI ({@code nsu=}). */
    public HistoryRecording withEventNotifiers(Set<ExpandedNodeId> value, boolean writable) {
        return new HistoryRecording(nodes, historyWritable, samplingInterval, retention, retentionCheckInterval,
                value, writable);
    }

    /** This recording with another retention. */
    public HistoryRecording withRetention(HistoryRetention value) {
        return new HistoryRecording(nodes, historyWritable, samplingInterval, value, retentionCheckInterval,
                eventNotifiers, eventsWritable);
    }

    /** This recording with another sampling interval. */
    public HistoryRecording withSamplingInterval(Duration value) {
        return new HistoryRecording(nodes, historyWritable, value, retention, retentionCheckInterval,
                eventNotifiers, eventsWritable);
    }
}
