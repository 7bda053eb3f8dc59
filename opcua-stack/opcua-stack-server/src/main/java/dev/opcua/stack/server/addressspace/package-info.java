/** The address space model (Part 3, 5): nodes of the eight node classes, their attributes and references. */
package dev.opcua.stack.server.addressspace;
