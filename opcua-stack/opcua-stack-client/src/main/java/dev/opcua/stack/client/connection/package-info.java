/** The client's connection: discovery, channel and session, keep-alive, and reconnect with backoff (Part 4, 6.7). */
package dev.opcua.stack.client.connection;
