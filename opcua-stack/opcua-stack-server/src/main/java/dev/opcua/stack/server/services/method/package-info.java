/** The Method service set (Part 4, 5.12): Call, routed to the node managers. */
package dev.opcua.stack.server.services.method;
