/** The sample plant application: a Spring Boot application whose OPC UA server comes from the starter. */
package dev.opcua.sample.server;
