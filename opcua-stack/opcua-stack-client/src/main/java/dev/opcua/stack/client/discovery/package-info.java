/** Client calls of the Discovery service set (Part 4, 5.4): GetEndpoints and FindServers. */
package dev.opcua.stack.client.discovery;
