/**
 * The MQTT transport of PubSub (Part 14, 7.3.5) on the HiveMQ MQTT client (MQTT 3.1.1 and 5, Netty based):
 * {@link dev.opcua.stack.pubsub.transport.mqtt.MqttTransport} with its
 * {@link dev.opcua.stack.pubsub.transport.mqtt.MqttSettings}, and the standard topic tree
 * ({@link dev.opcua.stack.pubsub.transport.mqtt.MqttTopics}, Part 14, 7.3.5.7).
 */
package dev.opcua.stack.pubsub.transport.mqtt;
