/**
 * Auto-configuration of the live console at {@code /opcua-console} ({@code opcua.console.enabled}), for
 * Spring MVC and WebFlux applications.
 */
package dev.opcua.spring.boot.autoconfigure.console;
