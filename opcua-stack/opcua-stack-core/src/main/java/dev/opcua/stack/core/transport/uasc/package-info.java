/** What the client and the server ends of UA Secure Conversation (Part 6, 6.7) share: the sending half of a secure channel and the batching of its writes. */
package dev.opcua.stack.core.transport.uasc;
