package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.server.subscriptions.events.EventFilterEvaluator;

/**
 * The revised parameters of an event item (Part 4, 7.21 MonitoringParameters): its sampling interval
 * is always 0, events are queued as they are reported.
 *
 * @param queueSize revised, at least 1
 * @param filter compiled and valid
 */
record EventParameters(long clientHandle, int queueSize, boolean discardOldest, EventFilterEvaluator filter) {
}
