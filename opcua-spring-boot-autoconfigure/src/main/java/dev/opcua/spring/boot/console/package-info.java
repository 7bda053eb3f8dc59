/**
 * The live console at {@code /opcua-console}: its JSON (the {@code /actuator/opcua} descriptor, an in-process
 * address-space browser) and the controller that serves it with the page, for Spring MVC and WebFlux alike.
 */
package dev.opcua.spring.boot.console;
