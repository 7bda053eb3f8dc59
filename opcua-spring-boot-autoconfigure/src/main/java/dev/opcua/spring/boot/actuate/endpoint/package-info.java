/**
 * The {@code opcua} Actuator endpoint: endpoints, sessions, request queue and subscriptions of the server,
 * and the state of the application's client connections.
 */
package dev.opcua.spring.boot.actuate.endpoint;
