package dev.opcua.stack.pubsub.transport;

/**
 * How hard a broker transport tries to deliver a message: Part 14's BrokerTransportQualityOfService (6.4.2.5)
 * without NotSpecified and BestEffort, which a configuration resolves to one of these before it reaches a transport.
 * The three values are MQTT's QoS 0, 1 and 2.
 */
public enum QualityOfService {
    /** Fire and forget (MQTT QoS 0): lost if the connection drops while the message is on its way. */
    AT_MOST_ONCE,
    /** Acknowledged (MQTT QoS 1): resent until acknowledged, so it may arrive twice. */
    AT_LEAST_ONCE,
    /** Four-way handshake (MQTT QoS 2): neither lost nor duplicated by the protocol, at the highest cost. */
    EXACTLY_ONCE
}
