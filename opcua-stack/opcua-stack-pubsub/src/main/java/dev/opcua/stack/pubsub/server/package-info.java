/**
 * PubSub on an {@link dev.opcua.stack.server.OpcUaServer}: published data sets sampled from its address space,
 * field targets written into it, and the PubSub configuration shown in its information model (Part 14, 9).
 * Needs {@code opcua-stack-server} on the class path.
 */
package dev.opcua.stack.pubsub.server;
