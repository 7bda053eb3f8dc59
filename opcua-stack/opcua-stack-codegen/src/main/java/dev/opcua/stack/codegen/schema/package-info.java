/** Readers for the schema data files (binary type dictionary, CSV id lists, UANodeSet XML) and the records they produce. */
package dev.opcua.stack.codegen.schema;
