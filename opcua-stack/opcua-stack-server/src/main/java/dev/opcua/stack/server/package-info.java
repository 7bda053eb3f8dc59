/** The OPC UA server: transport, request dispatch and service sets on top of the stack core. */
package dev.opcua.stack.server;
