/** Start-up failures of the OPC UA auto-configuration: invalid properties and the report that names them. */
package dev.opcua.spring.boot.autoconfigure.diagnostics;
