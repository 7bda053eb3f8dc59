package dev.opcua.stack.pubsub.transport.mqtt;

import com.hivemq.client.mqtt.datatypes.MqttTopicFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import java.util.concurrent.CompletableFuture;

/**
 * The few operations {@link MqttTransport} needs, over HiveMQ's MQTT 3 or MQTT 5 async client, whose APIs are
 * parallel but not shared. Every future completes on a client thread.
 */
interface MqttClientAdapter {

    /** How many incoming messages wait for the transport's thread before the client stops reading (backpressure). */
    int INBOUND_BUFFER = 1024;

    /** CONNECT with the settings' keep alive, session, credentials and will. */
    CompletableFuture<Void> connect();

    /** PUBLISH; fails if the broker refused it (MQTT 5 reason code) or the connection was lost. */
    CompletableFuture<Void> publish(OutgoingMessage message);

    /** SUBSCRIBE one filter; fails if the broker refused it. */
    CompletableFuture<Void> subscribe(MqttTopicFilter filter, MqttQos qos);

    /** UNSUBSCRIBE one filter. */
    CompletableFuture<Void> unsubscribe(MqttTopicFilter filter);

    /** A normal DISCONNECT (the broker discards the will); also stops a pending reconnect. */
    CompletableFuture<Void> disconnect();

    /** Ends the flow of incoming messages, after {@link #disconnect()}; the client then releases its event loop. */
    void close();

    /** A sentence for a failure of this client, with the broker's reason code where it sent one. */
    String describe(Throwable failure);
}
