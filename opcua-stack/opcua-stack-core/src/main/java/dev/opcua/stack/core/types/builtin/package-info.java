/** The 25 built-in types of OPC UA (Part 6, 5.1) as immutable Java values. */
package dev.opcua.stack.core.types.builtin;
