/** The client's connection (Part 4, 6.7): endpoint, channel and session, the gate requests pass, keep-alive, and reconnect with backoff. */
package dev.opcua.stack.client.connection;
