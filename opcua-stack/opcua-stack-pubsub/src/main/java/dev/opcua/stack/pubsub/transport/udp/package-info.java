/**
 * The OPC UA UDP transport of PubSub (Part 14, 7.3.2): UADP network messages as datagrams to and from unicast,
 * broadcast and multicast addresses, brokerless. {@link dev.opcua.stack.pubsub.transport.udp.UdpTransport} says
 * how the SPI's topics map onto {@code opc.udp://<host>[:<port>]} addresses.
 */
package dev.opcua.stack.pubsub.transport.udp;
