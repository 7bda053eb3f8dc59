package dev.opcua.stack.server.subscriptions.events;

import dev.opcua.stack.core.types.builtin.NodeId;

/**
 * Receives the events reported on a notifier it subscribed to, or below it; typically one event
 * monitored item (Part 4, 5.12.1), which applies its {@link EventFilterEvaluator} and queues the
 * notification.
 */
@FunctionalInterface
public interface EventListener {

    /**
     * Called on the reporting thread, possibly from several threads at once; must be quick and must
     * not block.
     *
     * @param notifier the notifier the event was reported on (the subscribed one or one below it)
     */
    void onEvent(NodeId notifier, UaEvent event);
}
