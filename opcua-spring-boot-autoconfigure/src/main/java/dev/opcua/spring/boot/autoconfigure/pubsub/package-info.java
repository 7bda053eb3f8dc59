/**
 * Auto-configuration of OPC UA PubSub over MQTT from {@code opcua.pubsub.*}: the properties, their checks and
 * the service's assembly.
 */
package dev.opcua.spring.boot.autoconfigure.pubsub;
