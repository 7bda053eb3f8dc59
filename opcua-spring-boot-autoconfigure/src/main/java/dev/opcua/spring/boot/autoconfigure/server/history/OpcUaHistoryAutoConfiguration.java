package dev.opcua.spring.boot.autoconfigure.server.history;

import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.spring.boot.server.OpcUaServerCustomizer;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.history.HistoryStore;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Historical Access from {@code opcua.server.history.*} (off unless {@code enabled}): a {@link HistoryStore}
 * (the embedded one by default, in memory on request; an application's own HistoryStore bean wins and is
 * used as it is) and the customizer that gives it to the server with the settings and the recording. The
 * store is closed with the context, after the server stopped.
 */
@AutoConfiguration(before = OpcUaServerAutoConfiguration.class)
@ConditionalOnClass(OpcUaServer.class)
@ConditionalOnBooleanProperty(name = "opcua.server.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "opcua.server.history.enabled")
@EnableConfigurationProperties(OpcUaHistoryProperties.class)
public final class OpcUaHistoryAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    HistoryStore opcUaHistoryStore(OpcUaHistoryProperties properties) {
        return new OpcUaHistoryPropertiesMapper(properties).store();
    }

    @Bean
    OpcUaServerCustomizer opcUaHistoryCustomizer(OpcUaHistoryProperties properties, HistoryStore store) {
        OpcUaHistoryPropertiesMapper mapper = new OpcUaHistoryPropertiesMapper(properties);
        return builder -> builder.history(store, mapper.settings()).historyRecording(mapper.recording());
    }
}
