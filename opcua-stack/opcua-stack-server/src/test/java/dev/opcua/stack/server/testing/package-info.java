/** Test support: golden frames, frame builders and readers, embedded, socket and Milo clients, a discovery fixture. */
package dev.opcua.stack.server.testing;
