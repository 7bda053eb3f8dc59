package dev.opcua.stack.pubsub.transport;

import java.util.concurrent.CompletableFuture;

/** A broker transport (placeholder until the MQTT transport lands). */
public interface PubSubTransport extends AutoCloseable {

    CompletableFuture<Void> start();

    void publish(String topic, byte[] payload, QualityOfService qos, boolean retain);

    void subscribe(String topicFilter, QualityOfService qos, MessageHandler handler);

    void unsubscribe(String topicFilter);

    boolean isConnected();

    @Override
    void close();
}
