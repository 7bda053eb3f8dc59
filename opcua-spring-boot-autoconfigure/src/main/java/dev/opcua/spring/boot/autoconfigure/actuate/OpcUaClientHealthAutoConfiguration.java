package dev.opcua.spring.boot.autoconfigure.actuate;

import dev.opcua.spring.boot.actuate.health.OpcUaClientHealthIndicator;
import dev.opcua.spring.boot.client.OpcUaClients;
import dev.opcua.spring.boot.client.OpcUaReverseConnectListeners;
import dev.opcua.stack.client.OpcUaClient;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of one {@link OpcUaClientHealthIndicator} per OPC UA client connection, under the
 * composite {@code opcuaClients} ({@code /actuator/health/opcuaClients/<connection>}); off with
 * {@code management.health.opcua-clients.enabled=false}. A composite rather than one indicator per bean
 * so that the connections sit together and a connection name cannot clash with another component.
 */
@AutoConfiguration(afterName = "dev.opcua.spring.boot.autoconfigure.client.OpcUaClientAutoConfiguration")
@ConditionalOnClass({ AbstractHealthIndicator.class, ConditionalOnEnabledHealthIndicator.class, OpcUaClient.class })
@ConditionalOnBean({ OpcUaClients.class, OpcUaClient.class })
@ConditionalOnEnabledHealthIndicator("opcua-clients")
public final class OpcUaClientHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = { "opcuaClientsHealthIndicator", "opcuaClientsHealthContributor" })
    HealthContributor opcuaClientsHealthContributor(OpcUaClients clients,
            ObjectProvider<OpcUaReverseConnectListeners> reverseConnectListeners) {
        OpcUaReverseConnectListeners listeners = reverseConnectListeners.getIfAvailable(
                () -> OpcUaReverseConnectListeners.NONE);
        Map<String, OpcUaClientHealthIndicator> indicators = new LinkedHashMap<>();
        clients.asMap().forEach((connection, client) -> indicators.put(connection,
                new OpcUaClientHealthIndicator(client, listeners.forConnection(connection).orElse(null))));
        return CompositeHealthContributor.fromMap(indicators);
    }
}
