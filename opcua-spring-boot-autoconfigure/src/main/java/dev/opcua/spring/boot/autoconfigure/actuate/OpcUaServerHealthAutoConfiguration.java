package dev.opcua.spring.boot.autoconfigure.actuate;

import dev.opcua.spring.boot.actuate.health.OpcUaServerHealthIndicator;
import dev.opcua.spring.boot.actuate.health.OpcUaServiceLevelHealthIndicator;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerProperties;
import dev.opcua.stack.server.OpcUaServer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@link OpcUaServerHealthIndicator} under the name {@code opcua}
 * ({@code /actuator/health/opcua}) and of the {@link OpcUaServiceLevelHealthIndicator} under
 * {@code opcuaServiceLevel} (in no group unless the application adds it, e.g. to readiness); both off with
 * {@code management.health.opcua.enabled=false}.
 */
@AutoConfiguration(afterName = "dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration")
@ConditionalOnClass({ AbstractHealthIndicator.class, ConditionalOnEnabledHealthIndicator.class, OpcUaServer.class })
@ConditionalOnBean(OpcUaServer.class)
@ConditionalOnEnabledHealthIndicator("opcua")
public final class OpcUaServerHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = { "opcuaHealthIndicator", "opcuaHealthContributor" })
    OpcUaServerHealthIndicator opcuaHealthIndicator(OpcUaServer server) {
        return new OpcUaServerHealthIndicator(server);
    }

    @Bean
    @ConditionalOnMissingBean(name = { "opcuaServiceLevelHealthIndicator", "opcuaServiceLevelHealthContributor" })
    OpcUaServiceLevelHealthIndicator opcuaServiceLevelHealthIndicator(OpcUaServer server,
            OpcUaServerProperties properties) {
        return new OpcUaServiceLevelHealthIndicator(server,
                properties.getRedundancy().getReadinessMinServiceLevel());
    }
}
