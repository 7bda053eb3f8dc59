/** The client's UA TCP secure channel (Part 6, 7.1 and 6.7) and the shared resources it runs on. */
package dev.opcua.stack.client.transport;
