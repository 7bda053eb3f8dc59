/** The server end of UA Secure Conversation (Part 6, 6.7 and 7.1): the connection handler, its secure channel and tokens, and the counters all connections share. */
package dev.opcua.stack.server.transport.uasc;
