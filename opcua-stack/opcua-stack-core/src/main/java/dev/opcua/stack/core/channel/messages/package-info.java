/** UA TCP connection protocol messages (Part 6, 7.1.2): Hello, Acknowledge, Error, ReverseHello. */
package dev.opcua.stack.core.channel.messages;
