/** UA Binary encoding (Part 6, 5.2) over Netty {@code ByteBuf}s. */
package dev.opcua.stack.core.encoding.binary;
