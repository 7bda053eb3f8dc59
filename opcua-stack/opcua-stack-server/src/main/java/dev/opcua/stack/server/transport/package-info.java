/** The server's UA TCP listener (Part 6, 7.1): Netty bootstrap, event loops, endpoint URL checks. */
package dev.opcua.stack.server.transport;
