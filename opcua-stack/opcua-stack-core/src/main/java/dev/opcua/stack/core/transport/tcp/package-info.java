/** Netty framing of UA TCP (Part 6, 7.1): the 8-byte header, limits on chunk size. */
package dev.opcua.stack.core.transport.tcp;
