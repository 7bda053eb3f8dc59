package dev.opcua.stack.pubsub.transport.mqtt;

/**
 * The MQTT protocol version a transport speaks (Part 14, 7.3.5.2, connection property MqttVersion). There is no
 * "BestAvailable": the client cannot fall back from 5 to 3.1.1 on its own, so the configuration picks one.
 */
public enum MqttProtocolVersion {
    /** MQTT 3.1.1 (OASIS 2014): every broker speaks it. */
    V3_1_1,
    /** MQTT 5.0 (OASIS 2019): reason codes, session expiry, message properties. */
    V5
}
