package dev.opcua.stack.client.subscriptions;

import dev.opcua.stack.core.types.builtin.StatusCode;

/**
 * Told of a StatusChangeNotification (Part 4, 7.20.4) of a subscription: BadTimeout when the server
 * let its lifetime expire and deleted it, GoodSubscriptionTransferred when another session took it
 * over. Runs on the listener executor, in order with the subscription's notifications.
 */
@FunctionalInterface
public interface SubscriptionStatusListener {

    void onStatusChange(ClientSubscription subscription, StatusCode status);
}
