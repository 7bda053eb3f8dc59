package dev.opcua.stack.server.services.history;

/**
 * The limits of the Historical Access services; 0 means no limit where noted.
 *
 * @param maxNodesPerHistoryReadData OperationLimits MaxNodesPerHistoryReadData (Part 5, 6.3.11), 0 = none
 * @param maxNodesPerHistoryReadEvents OperationLimits MaxNodesPerHistoryReadEvents, 0 = none
 * @param maxNodesPerHistoryUpdateData OperationLimits MaxNodesPerHistoryUpdateData, 0 = none
 * @param maxNodesPerHistoryUpdateEvents OperationLimits MaxNodesPerHistoryUpdateEvents, 0 = none
 * @param maxContinuationPoints MaxHistoryContinuationPoints (Part 5, 6.3.2): per session, at least 1;
 *        a new one frees the oldest when all are in use (Part 4, 7.9)
 * @param maxReturnDataValues HistoryServerCapabilities MaxReturnDataValues (Part 11, 5.4.2): the most values
 *        one node returns per response, whatever numValuesPerNode asks; the rest follows by continuation
 *        point. At least 1.
 */
public record HistorySettings(int maxNodesPerHistoryReadData, int maxNodesPerHistoryReadEvents,
        int maxNodesPerHistoryUpdateData, int maxNodesPerHistoryUpdateEvents, int maxContinuationPoints,
        int maxReturnDataValues) {

    /** No operation limits, 10 continuation points per session, 10,000 values per node and response. */
    public static final HistorySettings DEFAULT = new HistorySettings(0, 0, 0, 0, 10, 10_000);

    public HistorySettings {
        if (maxNodesPerHistoryReadData < 0 || maxNodesPerHistoryReadEvents < 0 || maxNodesPerHistoryUpdateData < 0
                || maxNodesPerHistoryUpdateEvents < 0) {
            throw new IllegalArgumentException("history operation limits must be >= 0 (0 = no limit)");
        }
        if (maxContinuationPoints < 1) {
            throw new IllegalArgumentException("maxContinuationPoints must be >= 1 (Part 4, 7.9), was "
                    + maxContinuationPoints);
        }
        if (maxReturnDataValues < 1) {
            throw new IllegalArgumentException("maxReturnDataValues must be >= 1, was " + maxReturnDataValues);
        }
    }

    /** These settings with another number of continuation points per session. */
    public HistorySettings withMaxContinuationPoints(int value) {
        return new HistorySettings(maxNodesPerHistoryReadData, maxNodesPerHistoryReadEvents,
                maxNodesPerHistoryUpdateData, maxNodesPerHistoryUpdateEvents, value, maxReturnDataValues);
    }
}
