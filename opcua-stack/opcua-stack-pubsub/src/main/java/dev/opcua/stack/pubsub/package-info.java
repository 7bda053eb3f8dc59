/**
 * OPC UA PubSub (Part 14): data sets published from an address space or from Java, carried as JSON or UADP
 * network messages through a broker (MQTT) and read back into variables or listeners.
 */
package dev.opcua.stack.pubsub;
