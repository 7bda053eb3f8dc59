/** Netty handlers of UA Secure Conversation (Part 6, 6.7) for the client and the server end. */
package dev.opcua.stack.core.transport.uasc;
