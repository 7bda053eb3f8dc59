/**
 * Actuator health indicators: the OPC UA server's (state, endpoints, application certificate expiry) and
 * one per OPC UA client connection (state, security, session, last error).
 */
package dev.opcua.spring.boot.actuate.health;
