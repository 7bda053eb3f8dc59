/** A client-only application the console's browser test starts beside the sample plant. */
package dev.opcua.consoletest;
