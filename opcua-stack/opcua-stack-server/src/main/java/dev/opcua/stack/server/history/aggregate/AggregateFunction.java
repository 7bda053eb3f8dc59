package dev.opcua.stack.server.history.aggregate;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import java.util.Optional;

/**
 * The aggregates this server computes, each with the NodeId of its AggregateFunction object in namespace 0
 * (Part 13, 4.2.2 and 5.4.3), the id a client names in ReadProcessedDetails.
 */
public enum AggregateFunction {

    INTERPOLATIVE(NodeIds.AggregateFunction_Interpolative, new InterpolativeAggregate()),
    AVERAGE(NodeIds.AggregateFunction_Average, new AverageAggregate()),
    TIME_AVERAGE(NodeIds.AggregateFunction_TimeAverage, new TimeWeightedAggregate(false)),
    TOTAL(NodeIds.AggregateFunction_Total, new TimeWeightedAggregate(true)),
    MINIMUM(NodeIds.AggregateFunction_Minimum, new ExtremeAggregate(false)),
    MAXIMUM(NodeIds.AggregateFunction_Maximum, new ExtremeAggregate(true)),
    COUNT(NodeIds.AggregateFunction_Count, new CountAggregate()),
    START(NodeIds.AggregateFunction_Start, new RawEdgeAggregate(false)),
    END(NodeIds.AggregateFunction_End, new RawEdgeAggregate(true)),
    DELTA(NodeIds.AggregateFunction_Delta, new DeltaAggregate()),
    DURATION_GOOD(NodeIds.AggregateFunction_DurationGood, new DurationAggregate(true)),
    DURATION_BAD(NodeIds.AggregateFunction_DurationBad, new DurationAggregate(false));

    private final NodeId nodeId;
    private final IntervalCalculation calculation;

    AggregateFunction(int id, IntervalCalculation calculation) {
        this.nodeId = NodeId.ns0(id);
        this.calculation = calculation;
    }

    /** NodeId of the AggregateFunction object in namespace 0. */
    public NodeId nodeId() {
        return nodeId;
    }

    IntervalCalculation calculation() {
        return calculation;
    }

    /** The aggregate a client names by this NodeId, or empty when the server does not compute it. */
    public static Optional<AggregateFunction> forNodeId(NodeId nodeId) {
        for (AggregateFunction function : values()) {
            if (function.nodeId.equals(nodeId)) {
                return Optional.of(function);
            }
        }
        return Optional.empty();
    }
}
