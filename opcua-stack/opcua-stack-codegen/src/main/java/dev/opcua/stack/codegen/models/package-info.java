/** Writes companion NodeSet2 files as Java sources that build them through the server's NodeSetData API. */
package dev.opcua.stack.codegen.models;
