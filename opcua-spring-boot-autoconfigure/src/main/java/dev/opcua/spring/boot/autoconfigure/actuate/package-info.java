/** Auto-configuration of the OPC UA server's metrics, health indicator and {@code opcua} endpoint. */
package dev.opcua.spring.boot.autoconfigure.actuate;
