package dev.opcua.stack.client.subscriptions;

import dev.opcua.stack.core.types.structured.SubscriptionAcknowledgement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The NotificationMessages received and not yet acknowledged (Part 4, 5.13.5): each goes out in the
 * next Publish request, whichever subscription it belongs to, and again in a later one when that
 * request failed. Lock-free: added on the I/O thread that handled a Publish response, taken by the
 * thread that builds the next request.
 */
final class Acknowledgements {

    private final ConcurrentLinkedQueue<SubscriptionAcknowledgement> waiting = new ConcurrentLinkedQueue<>();

    /** The message {@code sequenceNumber} (as on the wire) of the subscription was received. */
    void add(long subscriptionId, long sequenceNumber) {
        waiting.add(new SubscriptionAcknowledgement(subscriptionId, sequenceNumber));
    }

    /** Takes every acknowledgement waiting, for one Publish request. */
    SubscriptionAcknowledgement[] take() {
        if (waiting.isEmpty()) {
            return new SubscriptionAcknowledgement[0];
        }
        List<SubscriptionAcknowledgement> list = new ArrayList<>();
        SubscriptionAcknowledgement a;
        while ((a = waiting.poll()) != null) {
            list.add(a);
        }
        return list.toArray(new SubscriptionAcknowledgement[0]);
    }

    /** The Publish request that carried {@code acks} failed: the server may not have seen them. */
    void again(SubscriptionAcknowledgement[] acks) {
        for (SubscriptionAcknowledgement a : acks) {
            waiting.add(a);
        }
    }

    /** The subscription's server id is no longer valid: its acknowledgements would be refused. */
    void forget(long subscriptionId) {
        waiting.removeIf(a -> a.subscriptionId() == subscriptionId);
    }
}
