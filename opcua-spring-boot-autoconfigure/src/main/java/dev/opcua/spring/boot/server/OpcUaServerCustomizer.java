package dev.opcua.spring.boot.server;

import dev.opcua.stack.server.OpcUaServer;

/**
 * Adjusts the builder of the auto-configured {@link OpcUaServer} after the {@code opcua.server.*}
 * properties, the identity validator and the {@code NodeManager} beans were applied: for settings the
 * properties do not cover, such as a service observer or an own client certificate validator.
 * Customizer beans run in {@link org.springframework.core.annotation.Order @Order} /
 * {@link org.springframework.core.Ordered} order, so a later one sees (and may override) what an
 * earlier one set.
 */
@FunctionalInterface
public interface OpcUaServerCustomizer {

    void customize(OpcUaServer.Builder builder);
}
