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
 */
public record HistoryRecording(Set<ExpandedNodeId> nodes, boolean historyWritable, Duration samplingInterval,
        HistoryRetention retention, Duration retentionCheckInterval) {

    /** Only self-declared historizing variables, sampled each second, everything kept, checked each minute. */
    public static final HistoryRecording DEFAULT = new HistoryRecording(Set.of(), false, Duration.ofSeconds(1),
            HistoryRetention.UNLIMITED, Duration.ofMinutes(1));

    public HistoryRecording {
        nodes = Set.copyOf(Objects.requireNonNull(nodes, "nodes"));
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
        return new HistoryRecording(value, writable, samplingInterval, retention, retentionCheckInterval);
    }

    /** This recording with another retention. */
    public HistoryRecording withRetention(HistoryRetention value) {
        return new HistoryRecording(nodes, historyWritable, samplingInterval, value, retentionCheckInterval);
    }

    /** This recording with another sampling interval. */
    public HistoryRecording withSamplingInterval(Duration value) {
        return new HistoryRecording(nodes, historyWritable, value, retention, retentionCheckInterval);
    }
}
