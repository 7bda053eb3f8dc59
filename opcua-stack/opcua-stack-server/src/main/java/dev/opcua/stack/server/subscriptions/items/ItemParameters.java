package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;

/**
 * The revised parameters of a data-change item (Part 4, 7.21 MonitoringParameters, plus the
 * request's TimestampsToReturn), as creation and ModifyMonitoredItems set them.
 *
 * @param samplingInterval revised, in ms; 0 only for an item fed by its node manager's pushes
 * @param queueSize revised, at least 1
 */
record ItemParameters(long clientHandle, double samplingInterval, int queueSize, boolean discardOldest,
        ChangeFilter filter, TimestampsToReturn timestamps) {
}
