/** Writers that turn the generation model into Java source files. */
package dev.opcua.stack.codegen.emit;
