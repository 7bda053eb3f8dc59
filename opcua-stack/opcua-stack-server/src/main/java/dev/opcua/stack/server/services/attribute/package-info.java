/** The Attribute service set (Part 4, 5.11): Read and Write, routed to the node managers. */
package dev.opcua.stack.server.services.attribute;
