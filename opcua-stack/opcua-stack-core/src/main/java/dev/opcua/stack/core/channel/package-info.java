/** UA Secure Conversation chunks (Part 6, 6.7): message types, chunk encoding and reassembly, sequence numbers. */
package dev.opcua.stack.core.channel;
