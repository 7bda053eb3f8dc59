/** Values as a person types and reads them: text to the Java value of a DataType, and values back to text. */
package dev.opcua.cli.values;
