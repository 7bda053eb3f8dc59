/** Namespace 0, the standard address space (Part 5), loaded from a compact resource written by opcua-stack-codegen. */
package dev.opcua.stack.server.namespace0;
