/** The Actuator health indicator of the OPC UA server: state, endpoints and application certificate expiry. */
package dev.opcua.spring.boot.actuate.health;
