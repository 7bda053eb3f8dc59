package dev.opcua.stack.server.subscriptions;

import dev.opcua.stack.server.session.Session;

/**
 * Finds a subscription of a session for the monitored-item service set (Part 4, 5.12).
 */
@FunctionalInterface
public interface SubscriptionLookup {

    /**
     * @throws dev.opcua.stack.core.UaException BadSubscriptionIdInvalid when the session has no
     *         subscription with this id
     */
    ItemOwner find(Session session, long subscriptionId);
}
