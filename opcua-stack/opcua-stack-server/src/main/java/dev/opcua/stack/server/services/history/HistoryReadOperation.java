package dev.opcua.stack.server.services.history;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.structured.HistoryData;
import dev.opcua.stack.core.types.structured.HistoryReadDetails;
import dev.opcua.stack.core.types.structured.HistoryReadResult;
import dev.opcua.stack.server.nodes.NumericRange;
import dev.opcua.stack.server.nodes.OperationContext;
import java.util.List;

/**
 * One node of a HistoryRead request (Part 4, 5.10.3) as a {@link HistoryReader} sees it: the node,
 * the request's details and TimestampsToReturn, the session's limits, and the helpers that build its
 * {@link HistoryReadResult}.
 *
 * @param <D> the kind of details
 */
public final class HistoryReadOperation<D extends HistoryReadDetails> {

    private final OperationContext context;
    private final NodeId nodeId;
    private final NumericRange indexRange;
    private final D details;
    private final TimestampsToReturn timestampsToReturn;
    private final int maxReturnDataValues;
    private final HistoryContinuationPoints points;
    private final HistoryReader<D> reader;
    private final int index;
    private final int nodeCount;

    HistoryReadOperation(OperationContext context, NodeId nodeId, NumericRange indexRange, D details,
            TimestampsToReturn timestampsToReturn, int maxReturnDataValues, HistoryContinuationPoints points,
            HistoryReader<D> reader, int index, int nodeCount) {
        this.context = context;
        this.nodeId = nodeId;
        this.indexRange = indexRange;
        this.details = details;
        this.timestampsToReturn = timestampsToReturn;
        this.maxReturnDataValues = maxReturnDataValues;
        this.points = points;
        this.reader = reader;
        this.index = index;
        this.nodeCount = nodeCount;
    }

    /**
     * Position of this node in the request's nodesToRead, from 0: ReadProcessedDetails pairs its aggregateType
     * entries with the nodes by position (Part 11, 6.5.4).
     */
    public int index() {
        return index;
    }

    /** How many nodes the request reads. */
    public int nodeCount() {
        return nodeCount;
    }

    /** The request's channel. */
    public OperationContext context() {
        return context;
    }

    public NodeId nodeId() {
        return nodeId;
    }

    public D details() {
        return details;
    }

    public TimestampsToReturn timestampsToReturn() {
        return timestampsToReturn;
    }

    /**
     * The most values this node may return in this response (HistoryServerCapabilities
     * MaxReturnDataValues), whatever the details ask: the rest follows by continuation point.
     */
    public int maxReturnDataValues() {
        return maxReturnDataValues;
    }

    /**
     * The values read, as HistoryData with the timestamps asked for and the index range applied, and,
     * when {@code continuation} is not null, a continuation point that brings it back to {@link
     * HistoryReader#resume}. Without values and continuation the status is GoodNoData (Part 11, 6.6),
     * else Good.
     */
    public HistoryReadResult result(List<DataValue> values, Object continuation) {
        DataValue[] out = new DataValue[values.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = shape(values.get(i));
        }
        int status = out.length == 0 && continuation == null ? StatusCodes.GoodNoData : StatusCodes.Good;
        return result(StatusCode.of(status), new HistoryData(out), continuation);
    }

    /** A result with any history structure (HistoryData, HistoryEvent ...) and an optional continuation. */
    public HistoryReadResult result(StatusCode status, UaStructure historyData, Object continuation) {
        ByteString point = continuation == null ? null
                : points.store(new HistoryContinuationPoints.Point(reader, nodeId, continuation));
        return new HistoryReadResult(status, point, ExtensionObject.of(historyData));
    }

    /** A result without data: a bad status of this node. */
    public static HistoryReadResult failed(int status) {
        return new HistoryReadResult(StatusCode.of(status), null, ExtensionObject.NULL);
    }

    /** Part 4, 7.40 TimestampsToReturn and Part 4, 7.27 IndexRange applied to a stored value. */
    DataValue shape(DataValue stored) {
        boolean source = timestampsToReturn != TimestampsToReturn.Server;
        boolean server = timestampsToReturn != TimestampsToReturn.Source;
        Variant value = stored.value();
        if (indexRange != null && stored.statusCode().isGood() && value != null && !value.isNull()) {
            try {
                value = indexRange.select(value);
            } catch (UaException e) {
                return DataValue.of(Variant.NULL, e.statusCode(), source ? stored.sourceTimestamp() : null,
                        source ? stored.sourcePicoseconds() : 0, server ? stored.serverTimestamp() : null,
                        server ? stored.serverPicoseconds() : 0);
            }
        }
        if (source && server && indexRange == null) {
            return stored;
        }
        return DataValue.of(value, stored.statusCode(), source ? stored.sourceTimestamp() : null,
                source ? stored.sourcePicoseconds() : 0, server ? stored.serverTimestamp() : null,
                server ? stored.serverPicoseconds() : 0);
    }
}
