package dev.opcua.stack.client.connection;

import dev.opcua.stack.client.session.ClientSession;
import dev.opcua.stack.client.transport.UaTcpClientChannel;

/**
 * A secure channel and the session activated on it (Part 4, 5.6.3): what requests go over. A new one
 * stands for each established connection, so comparing identities tells whether a callback still
 * speaks of the connection in use.
 */
record ActiveSession(UaTcpClientChannel channel, ClientSession session) {
}
