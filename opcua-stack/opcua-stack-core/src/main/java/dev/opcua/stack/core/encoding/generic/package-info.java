/** Structures no generated class knows, encoded from their DataTypeDefinition (Part 3, 8.48; Part 6, 5.2.6 and 5.2.7). */
package dev.opcua.stack.core.encoding.generic;
