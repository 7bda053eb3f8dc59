package dev.opcua.stack.pubsub.transport;

/** Delivery guarantee through a broker (Part 14, 6.4.2.2.3 BrokerTransportQualityOfService). */
public enum QualityOfService {
    AT_MOST_ONCE,
    AT_LEAST_ONCE,
    EXACTLY_ONCE
}
