/** The code generator of opcua-stack-core: entry point {@link dev.opcua.stack.codegen.CodeGenerator}. */
package dev.opcua.stack.codegen;
