/** Transport-level values shared by both ends, such as endpoint URLs (Part 6, 7). */
package dev.opcua.stack.core.transport;
