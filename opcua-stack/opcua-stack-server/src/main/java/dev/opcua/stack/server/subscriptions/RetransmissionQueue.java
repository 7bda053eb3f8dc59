package dev.opcua.stack.server.subscriptions;

import dev.opcua.stack.core.types.structured.NotificationMessage;
import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * The sent NotificationMessages of one subscription that the client has not acknowledged yet, for
 * Republish (Part 4, 5.13.1.1 and 5.13.6), oldest first and bounded: a full queue drops its oldest
 * message. Its own monitor, held for a few steps at a time, so that acknowledgements on the event loop
 * never wait for a publishing cycle.
 */
final class RetransmissionQueue {

    private static final long[] NONE = new long[0];

    private final ArrayDeque<NotificationMessage> messages;
    private final int capacity;

    RetransmissionQueue(int capacity) {
        this.capacity = capacity;
        this.messages = new ArrayDeque<>(Math.max(1, capacity));
    }

    /** The most messages it keeps. */
    int capacity() {
        return capacity;
    }

    /** Whether the queue keeps anything (capacity above 0). */
    boolean supported() {
        return capacity > 0;
    }

    synchronized void add(NotificationMessage message) {
        if (capacity == 0) {
            return;
        }
        if (messages.size() == capacity) {
            messages.pollFirst();
        }
        messages.addLast(message);
    }

    /** Removes the message with this sequence number; false when the queue does not hold it. */
    synchronized boolean acknowledge(long sequenceNumber) {
        for (Iterator<NotificationMessage> it = messages.iterator(); it.hasNext(); ) {
            if (it.next().sequenceNumber() == sequenceNumber) {
                it.remove();
                return true;
            }
        }
        return false;
    }

    /** The message with this sequence number, or null. */
    synchronized NotificationMessage get(long sequenceNumber) {
        for (NotificationMessage message : messages) {
            if (message.sequenceNumber() == sequenceNumber) {
                return message;
            }
        }
        return null;
    }

    /** The sequence numbers held, oldest first (Publish's availableSequenceNumbers). */
    synchronized long[] sequenceNumbers() {
        if (messages.isEmpty()) {
            return NONE;
        }
        long[] numbers = new long[messages.size()];
        int i = 0;
        for (NotificationMessage message : messages) {
            numbers[i++] = message.sequenceNumber();
        }
        return numbers;
    }

    /** A copy of the messages held, oldest first (durable snapshots); the queue is unchanged. */
    synchronized java.util.List<NotificationMessage> snapshot() {
        return new java.util.ArrayList<>(messages);
    }

    /** Puts back restored messages, oldest first, after what is held (a restored durable subscription). */
    synchronized void restore(java.util.List<NotificationMessage> restored) {
        for (NotificationMessage message : restored) {
            add(message);
        }
    }

    synchronized int size() {
        return messages.size();
    }

    synchronized void clear() {
        messages.clear();
    }
}
