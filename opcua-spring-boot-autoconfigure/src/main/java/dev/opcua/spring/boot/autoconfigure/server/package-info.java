/** Auto-configuration of the OPC UA server from {@code opcua.server.*} properties and beans. */
package dev.opcua.spring.boot.autoconfigure.server;
