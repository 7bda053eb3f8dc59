/** Test support: golden frames, frame builders and readers, embedded and socket clients, a discovery server fixture. */
package dev.opcua.stack.server.testing;
