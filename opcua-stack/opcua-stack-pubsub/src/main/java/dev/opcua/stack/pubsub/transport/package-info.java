/** How network messages travel: the transport SPI and its MQTT implementation (Part 14, 7.3). */
package dev.opcua.stack.pubsub.transport;
