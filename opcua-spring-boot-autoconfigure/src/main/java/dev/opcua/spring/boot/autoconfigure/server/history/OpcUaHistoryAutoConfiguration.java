package dev.opcua.spring.boot.autoconfigure.server.history;

import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.spring.boot.server.OpcUaServerCustomizer;
import dev.opcua.stack.history.embedded.EmbeddedHistoryStore;
import dev.opcua.stack.history.embedded.MVStoreDurableSubscriptionStore;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionStore;
import dev.opcua.stack.history.embedded.SyncPolicy;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.history.HistoryStore;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ResourceLoader;

/**
 * Historical Access from {@code opcua.server.history.*} (off unless {@code enabled}): a {@link HistoryStore} and the
 * customizer that gives it to the server with the settings and the recording. The store is the one {@code store}
 * names: the embedded one (the default, from {@code opcua-stack-history-embedded}), one in memory, or the JDBC one
 * ({@link OpcUaHistoryJdbcAutoConfiguration}, from {@code opcua-stack-history-jdbc}); an application's own HistoryStore
 * bean wins and is used as it is. A store whose module is not on the class path stops the start with an error naming
 * the module. The store is closed with the context, after the server stopped.
 *
 * <p>With the embedded store, durable subscriptions (Part 4, 6.8) are kept beside it, in
 * {@value MVStoreDurableSubscriptionStore#FILE_NAME} of the same directory, so that they survive a restart of the
 * application; an application's own {@link DurableSubscriptionStore} bean is used instead.
 */
@AutoConfiguration(before = OpcUaServerAutoConfiguration.class)
@ConditionalOnClass(OpcUaServer.class)
@ConditionalOnBooleanProperty(name = "opcua.server.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "opcua.server.history.enabled")
@EnableConfigurationProperties(OpcUaHistoryProperties.class)
public final class OpcUaHistoryAutoConfiguration {

    /**
     * The store in memory, or, where no other configuration made the store that {@code store} names, the start
     * stopped with the reason (runs after the nested configurations and the JDBC one).
     */
    @Bean
    @ConditionalOnMissingBean
    HistoryStore opcUaHistoryStore(OpcUaHistoryProperties properties, ResourceLoader resourceLoader) {
        return new OpcUaHistoryPropertiesMapper(properties).fallbackStore(resourceLoader.getClassLoader());
    }

    @Bean
    OpcUaServerCustomizer opcUaHistoryCustomizer(OpcUaHistoryProperties properties, HistoryStore store) {
        OpcUaHistoryPropertiesMapper mapper = new OpcUaHistoryPropertiesMapper(properties);
        return builder -> builder.history(store, mapper.settings()).historyRecording(mapper.recording());
    }

    /** The embedded store in {@code directory}, when its module is on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(EmbeddedHistoryStore.class)
    @ConditionalOnProperty(name = "opcua.server.history.store", havingValue = "embedded", matchIfMissing = true)
    static class EmbeddedStoreConfiguration {

        @Bean
        @ConditionalOnMissingBean(HistoryStore.class)
        EmbeddedHistoryStore opcUaEmbeddedHistoryStore(OpcUaHistoryProperties properties) {
            if (properties.getDirectory() == null || properties.getDirectory().toString().isBlank()) {
                throw OpcUaHistoryPropertiesMapper.CHECKS.invalid("directory", properties.getDirectory(),
                        "it is not set", "a directory for the embedded store, such as data/history");
            }
            SyncPolicy sync = properties.getSync() == OpcUaHistoryProperties.Sync.OPERATING_SYSTEM
                    ? SyncPolicy.OPERATING_SYSTEM : SyncPolicy.EVERY_COMMIT;
            try {
                return EmbeddedHistoryStore.open(properties.getDirectory(), sync);
            } catch (RuntimeException e) {
                throw OpcUaHistoryPropertiesMapper.CHECKS.invalid("directory", properties.getDirectory(),
                        "the embedded history store cannot be opened there: " + e.getMessage(),
                        "a writable directory not used by another process", e);
            }
        }

        /** Durable subscriptions in a file beside the embedded history store (closed after the server). */
        @Bean
        @ConditionalOnBean(EmbeddedHistoryStore.class)
        @ConditionalOnMissingBean(DurableSubscriptionStore.class)
        MVStoreDurableSubscriptionStore opcUaDurableSubscriptionStore(OpcUaHistoryProperties properties) {
            try {
                return MVStoreDurableSubscriptionStore.open(properties.getDirectory());
            } catch (RuntimeException e) {
                throw OpcUaHistoryPropertiesMapper.CHECKS.invalid("directory", properties.getDirectory(),
                        "the durable subscription store cannot be opened there: " + e.getMessage(),
                        "a writable directory not used by another process", e);
            }
        }

        @Bean
        OpcUaServerCustomizer opcUaDurableSubscriptionStoreCustomizer(ObjectProvider<DurableSubscriptionStore> store) {
            return builder -> store.ifAvailable(builder::durableSubscriptionStore);
        }
    }
}
