package dev.opcua.stack.pubsub.transport.mqtt;

import java.util.ArrayDeque;

/**
 * The bounded queue of messages published while disconnected. When full, the <em>oldest</em> message is dropped to
 * make room: PubSub data is periodic and a subscriber wants the latest values, so after an outage the newest
 * {@code capacity} messages are the useful ones. Not thread-safe: the transport guards it with its send lock.
 */
final class Outbox {

    private final ArrayDeque<OutgoingMessage> queue = new ArrayDeque<>();
    private final int capacity;

    Outbox(int capacity) {
        this.capacity = capacity;
    }

    /** Appends a message; returns how many messages were dropped for it (0 or 1). */
    int add(OutgoingMessage message) {
        if (capacity == 0) {
            return 1;
        }
        int dropped = 0;
        if (queue.size() >= capacity) {
            queue.pollFirst();
            dropped = 1;
        }
        queue.addLast(message);
        return dropped;
    }

    /**
     * Puts a message the client gave back (its connection was lost) in front, as the oldest; returns 1 if it had to
     * be dropped because the queue is full of newer messages, else 0.
     */
    int putBack(OutgoingMessage message) {
        if (queue.size() >= capacity) {
            return 1;
        }
        queue.addFirst(message);
        return 0;
    }

    OutgoingMessage poll() {
        return queue.pollFirst();
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }

    int size() {
        return queue.size();
    }

    /** Empties the queue; returns how many messages it held. */
    int clear() {
        int n = queue.size();
        queue.clear();
        return n;
    }
}
