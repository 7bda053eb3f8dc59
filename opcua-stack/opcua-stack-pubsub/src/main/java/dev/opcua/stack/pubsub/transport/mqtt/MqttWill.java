package dev.opcua.stack.pubsub.transport.mqtt;

import dev.opcua.stack.pubsub.transport.QualityOfService;
import java.util.Arrays;
import java.util.Objects;

/**
 * The message the broker publishes for a client that disappears without a DISCONNECT (MQTT "will"). A Publisher
 * registers its Status message with PubSubState Error and IsCyclic false here (Part 14, 7.3.5.7.7), on
 * {@link MqttTopics#status}, retained.
 *
 * @param topic a topic name without wildcards
 * @param payload the message (copied)
 * @param qos how the broker delivers it
 * @param retain whether the broker keeps it for later subscribers
 */
public record MqttWill(String topic, byte[] payload, QualityOfService qos, boolean retain) {

    public MqttWill {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(qos, "qos");
        MqttNames.checkTopic(topic);
        payload = payload.clone();
    }

    @Override
    public byte[] payload() {
        return payload.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MqttWill w && topic.equals(w.topic) && Arrays.equals(payload, w.payload) && qos == w.qos
                && retain == w.retain;
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, Arrays.hashCode(payload), qos, retain);
    }

    @Override
    public String toString() {
        return "MqttWill[topic=" + topic + ", " + payload.length + " bytes, qos=" + qos + ", retain=" + retain + "]";
    }
}
