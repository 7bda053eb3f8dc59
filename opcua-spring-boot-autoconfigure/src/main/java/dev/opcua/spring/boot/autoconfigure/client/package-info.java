/** Auto-configuration of OPC UA clients from {@code opcua.client.connections.*} properties and beans. */
package dev.opcua.spring.boot.autoconfigure.client;
