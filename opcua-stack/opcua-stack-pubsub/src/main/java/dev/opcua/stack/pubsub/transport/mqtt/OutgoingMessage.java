package dev.opcua.stack.pubsub.transport.mqtt;

import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.datatypes.MqttTopic;

/** One message on its way to the broker: checked topic, the caller's bytes (copied), QoS and RETAIN. */
record OutgoingMessage(MqttTopic topic, byte[] payload, MqttQos qos, boolean retain) {
}
