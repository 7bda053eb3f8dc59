/** Push certificate management of a server from the client side (Part 12, 7.10), without a GDS. */
package dev.opcua.stack.client.certificates;
