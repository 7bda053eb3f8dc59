/**
 * Auto-configuration of the Actuator support: the OPC UA server's and clients' metrics and health
 * indicators, and the {@code opcua} endpoint.
 */
package dev.opcua.spring.boot.autoconfigure.actuate;
