/** The {@code opcua} Actuator endpoint: endpoints, sessions, request queue and subscriptions of the server. */
package dev.opcua.spring.boot.actuate.endpoint;
