/** The client end of UA Secure Conversation (Part 6, 6.7 and 7.1): the connection handler, its token requests and the requests waiting for their responses. */
package dev.opcua.stack.client.transport.uasc;
