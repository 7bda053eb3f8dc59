/** The code generator of opcua-stack-core and of opcua-stack-server's namespace 0 resource: entry point {@link dev.opcua.stack.codegen.CodeGenerator}. */
package dev.opcua.stack.codegen;
