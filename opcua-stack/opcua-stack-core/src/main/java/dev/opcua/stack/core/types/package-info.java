/** Contracts shared by every OPC UA data type: structures and enumerations (Part 3, 8; Part 6, 5.2). */
package dev.opcua.stack.core.types;
