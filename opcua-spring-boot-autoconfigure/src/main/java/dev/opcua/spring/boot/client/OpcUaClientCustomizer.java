package dev.opcua.spring.boot.client;

import dev.opcua.stack.client.OpcUaClientConfig;

/**
 * Changes the configuration of each auto-configured {@link dev.opcua.stack.client.OpcUaClient} before
 * it is built, after the {@code opcua.client.connections.<name>.*} properties were applied. Beans of
 * this type are applied in their {@link org.springframework.core.annotation.Order order}.
 */
@FunctionalInterface
public interface OpcUaClientCustomizer {

    /**
     * @param connection the connection's name, the key under {@code opcua.client.connections}
     * @param builder the configuration as the properties made it
     */
    void customize(String connection, OpcUaClientConfig.Builder builder);
}
