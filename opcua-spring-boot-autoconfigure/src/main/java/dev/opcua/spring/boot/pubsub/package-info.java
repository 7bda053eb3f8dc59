/**
 * OPC UA PubSub in a Spring application: the running service with the context's lifecycle, and
 * {@code @OpcUaPubSubListener} methods that receive the data sets of a reader.
 */
package dev.opcua.spring.boot.pubsub;
