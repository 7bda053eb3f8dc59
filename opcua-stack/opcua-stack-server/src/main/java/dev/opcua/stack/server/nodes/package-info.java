/** The node-manager SPI: namespaces, node managers and the batched operations routed to them. */
package dev.opcua.stack.server.nodes;
