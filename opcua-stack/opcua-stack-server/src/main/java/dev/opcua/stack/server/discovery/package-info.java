/** The Discovery Service Set of a server: FindServers and GetEndpoints (Part 4, 5.4). */
package dev.opcua.stack.server.discovery;
