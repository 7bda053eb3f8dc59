package dev.opcua.stack.pubsub.transport;

/** Receives the messages of a subscribed topic filter. */
@FunctionalInterface
public interface MessageHandler {
    void onMessage(String topic, byte[] payload);
}
