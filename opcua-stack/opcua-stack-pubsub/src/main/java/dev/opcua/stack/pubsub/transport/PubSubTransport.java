package dev.opcua.stack.pubsub.transport;

import java.util.concurrent.CompletableFuture;

/**
 * Carries encoded PubSub network messages to and from a message oriented middleware (Part 14, 7.3): the PubSub
 * runtime encodes (JSON or UADP) and hands bytes and a topic to the transport; the transport neither reads nor
 * changes them. One transport is one connection to one broker (one PubSubConnection, Part 14, 9.1.5).
 *
 * <p>Threading: {@link #publish}, {@link #subscribe} and {@link #unsubscribe} may be called from any thread and
 * never block; handlers run on the transport's own thread.
 */
public interface PubSubTransport extends AutoCloseable {

    /**
     * Connects to the broker. The future completes when the first connection is made, or fails with a
     * {@link TransportException} naming the broker URL and the reason (refused credentials, no answer within the
     * connect timeout, TLS failure...); after a failed start the transport does not retry, so the caller may
     * {@link #close()} it or call {@code start()} on a new one. Once connected, a lost connection is re-made on its
     * own with backoff. Calling it again returns the same future.
     */
    CompletableFuture<Void> start();

    /**
     * Sends bytes to a topic (no wildcards). Never blocks: while disconnected (before the first connection too) the
     * message waits in a bounded queue and is sent, in order, after the next connection; when the queue is full the
     * implementation drops and counts a message as documented there.
     *
     * @throws IllegalArgumentException if the topic is not a valid topic name
     * @throws IllegalStateException if the transport is closed
     */
    void publish(String topic, byte[] payload, QualityOfService qos, boolean retain);

    /**
     * Subscribes a topic filter (MQTT wildcards {@code +} for one level and {@code #} for the rest). The subscription
     * is remembered and re-made after every reconnect. A second subscription of the same filter replaces the first.
     *
     * @return completes when the broker acknowledged the subscription (after the next connection if disconnected);
     *         fails if the broker refused it
     * @throws IllegalArgumentException if the filter is not a valid topic filter
     */
    CompletableFuture<Void> subscribe(String topicFilter, QualityOfService qos, MessageHandler handler);

    /**
     * Ends a subscription made with {@link #subscribe}; its handler gets no more messages at once.
     *
     * @return completes when the broker acknowledged it, or at once if not connected or not subscribed
     */
    CompletableFuture<Void> unsubscribe(String topicFilter);

    /** Whether the connection to the broker is up now. */
    boolean isConnected();

    /** The counters and state now. */
    TransportStatistics statistics();

    /**
     * Disconnects cleanly (a DISCONNECT the broker sees, so it does not send the will), stops reconnecting and
     * releases the transport's threads. Messages still queued are discarded (and logged). Idempotent.
     */
    @Override
    void close();
}
