package dev.opcua.stack.pubsub.transport;

/**
 * Receives the messages of one subscription of a {@link PubSubTransport}. It is called on the transport's own
 * thread, one message at a time and in arrival order; a handler that blocks holds up every other subscription of
 * the same transport, so hand long work to another executor.
 */
@FunctionalInterface
public interface MessageHandler {

    /**
     * @param topic the topic the message was published to (not the filter that matched it)
     * @param payload the message's bytes; shared with other handlers whose filter matches too, so do not modify it
     */
    void onMessage(String topic, byte[] payload);
}
