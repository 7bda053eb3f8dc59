/**
 * How network messages travel (Part 14, 7.3): the transport SPI, with MQTT through a broker ({@code mqtt}, 7.3.5)
 * and UADP over UDP unicast and multicast without one ({@code udp}, 7.3.2).
 */
package dev.opcua.stack.pubsub.transport;
