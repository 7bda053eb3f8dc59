package dev.opcua.spring.boot.autoconfigure.server.history;

import dev.opcua.spring.boot.autoconfigure.diagnostics.PropertyChecks;
import dev.opcua.spring.boot.autoconfigure.server.InvalidOpcUaServerPropertyException;
import dev.opcua.stack.history.jdbc.JdbcHistoryOptions;
import dev.opcua.stack.history.jdbc.JdbcHistoryStore;
import dev.opcua.stack.history.jdbc.state.JdbcDurableSubscriptionStore;
import dev.opcua.spring.boot.server.OpcUaServerCustomizer;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionStore;
import org.springframework.beans.factory.ObjectProvider;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.history.HistoryStore;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * With {@code opcua.server.history.enabled} and {@code store=jdbc}, a {@link JdbcHistoryStore} on the
 * application's {@link DataSource} bean (table and buffer from {@code opcua.server.history.jdbc.*}); it runs before
 * {@link OpcUaHistoryAutoConfiguration}, which hands the store to the server with the settings and the recording.
 * The application brings this store's module (dev.opcua:opcua-stack-history-jdbc), the JDBC driver
 * (org.postgresql:postgresql) and the DataSource; its own {@link HistoryStore} bean wins. The store is closed with the
 * context, after the server. Durable subscriptions are kept in the same database ({@link JdbcDurableSubscriptionStore},
 * table {@code <table>_durable}).
 */
@AutoConfiguration(before = OpcUaHistoryAutoConfiguration.class,
        afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnClass({OpcUaServer.class, JdbcHistoryStore.class, DataSource.class})
@ConditionalOnBooleanProperty(name = "opcua.server.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "opcua.server.history.enabled")
@ConditionalOnProperty(name = "opcua.server.history.store", havingValue = "jdbc")
@EnableConfigurationProperties(OpcUaHistoryJdbcProperties.class)
public final class OpcUaHistoryJdbcAutoConfiguration {

    private static final PropertyChecks CHECKS =
            new PropertyChecks("opcua.server.history.jdbc", InvalidOpcUaServerPropertyException::new);

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(HistoryStore.class)
    @ConditionalOnBean(DataSource.class)
    JdbcHistoryStore opcUaJdbcHistoryStore(DataSource dataSource, OpcUaHistoryJdbcProperties properties)
            throws SQLException {
        return JdbcHistoryStore.open(dataSource, options(properties));
    }

    /**
     * Durable subscriptions (Part 4, 6.8) in the same database, table {@code <table>_durable} beside the history
     * tables, so that they survive a restart of the application; only with this configuration's history store (an
     * application's own HistoryStore leaves the database alone), and an application's own DurableSubscriptionStore
     * bean wins.
     */
    @Bean
    @ConditionalOnMissingBean(DurableSubscriptionStore.class)
    @ConditionalOnBean(JdbcHistoryStore.class)
    JdbcDurableSubscriptionStore opcUaJdbcDurableSubscriptionStore(DataSource dataSource,
            OpcUaHistoryJdbcProperties properties) throws SQLException {
        return JdbcDurableSubscriptionStore.open(dataSource, options(properties).table());
    }

    @Bean
    OpcUaServerCustomizer opcUaJdbcDurableSubscriptionStoreCustomizer(ObjectProvider<DurableSubscriptionStore> store) {
        return builder -> store.ifAvailable(builder::durableSubscriptionStore);
    }

    /** The options the properties describe, each wrong value reported with its key. */
    static JdbcHistoryOptions options(OpcUaHistoryJdbcProperties properties) {
        String table = properties.getTable();
        if (table == null || !table.matches("[a-z_][a-z0-9_]{0,62}")) {
            throw CHECKS.invalid("table", table, "it is not a plain lower-case SQL identifier",
                    "letters a-z, digits and '_', not starting with a digit, at most 63 characters");
        }
        int batchSize = CHECKS.positive("batch-size", properties.getBatchSize());
        int capacity = CHECKS.positive("buffer-capacity", properties.getBufferCapacity());
        if (capacity < batchSize) {
            throw CHECKS.invalid("buffer-capacity", capacity, "it is smaller than batch-size (" + batchSize + ")",
                    "a count of at least batch-size");
        }
        return new JdbcHistoryOptions(table, batchSize, capacity,
                CHECKS.positiveDuration("flush-interval", properties.getFlushInterval()),
                CHECKS.positive("io-threads", properties.getIoThreads()), properties.isTimescale());
    }
}
