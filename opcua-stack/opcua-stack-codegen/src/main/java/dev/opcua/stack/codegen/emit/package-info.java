/** Writers that turn the generation model into Java source files, and the nodeset into the namespace 0 resource. */
package dev.opcua.stack.codegen.emit;
