/** Push certificate management (Part 12, 7.10): the ServerConfiguration object, its TrustList file and their methods. */
package dev.opcua.stack.server.certificates;
