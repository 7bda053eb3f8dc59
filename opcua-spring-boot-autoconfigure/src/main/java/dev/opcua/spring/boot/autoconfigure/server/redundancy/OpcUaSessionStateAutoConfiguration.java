package dev.opcua.spring.boot.autoconfigure.server.redundancy;

import dev.opcua.spring.boot.autoconfigure.diagnostics.PropertyChecks;
import dev.opcua.spring.boot.autoconfigure.server.InvalidOpcUaServerPropertyException;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerProperties;
import dev.opcua.spring.boot.server.OpcUaServerCustomizer;
import dev.opcua.stack.history.jdbc.state.JdbcSessionStateStore;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.redundancy.RedundancyMode;
import dev.opcua.stack.server.redundancy.SessionStateStore;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * With {@code opcua.server.redundancy.mode=hot-and-mirrored}, the server's {@link SessionStateStore}: the
 * application's own SessionStateStore bean, or a {@link JdbcSessionStateStore} in the PostgreSQL of the
 * application's {@link DataSource} bean (the JDBC history store's database), table
 * {@code <state-store.table-prefix>_sessions} created at start. Without either the start stops naming
 * {@code opcua.server.redundancy.state-store}. The application brings opcua-stack-history-jdbc, the driver and the
 * DataSource.
 */
@AutoConfiguration(afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnClass({OpcUaServer.class, JdbcSessionStateStore.class, DataSource.class})
@ConditionalOnBooleanProperty(name = "opcua.server.enabled", matchIfMissing = true)
@EnableConfigurationProperties(OpcUaServerProperties.class)
public final class OpcUaSessionStateAutoConfiguration {

    private static final PropertyChecks CHECKS =
            new PropertyChecks("opcua.server.redundancy.state-store", InvalidOpcUaServerPropertyException::new);

    @Bean
    OpcUaServerCustomizer opcUaSessionStateStoreCustomizer(OpcUaServerProperties properties,
            ObjectProvider<SessionStateStore> own, ObjectProvider<DataSource> dataSource) {
        return builder -> {
            if (properties.getRedundancy().getMode() != RedundancyMode.HotAndMirrored) {
                return;
            }
            SessionStateStore store = own.getIfAvailable();
            if (store == null) {
                DataSource database = dataSource.getIfUnique();
                if (database == null) {
                    return; // the server refuses to start, naming opcua.server.redundancy.state-store
                }
                store = open(database, properties.getRedundancy().getStateStore().getTablePrefix());
            }
            builder.sessionStateStore(store);
        };
    }

    /** The PostgreSQL store, each wrong value reported with its key. */
    static JdbcSessionStateStore open(DataSource database, String prefix) {
        if (prefix == null || !prefix.matches("[a-z_][a-z0-9_]{0,40}")) {
            throw CHECKS.invalid("table-prefix", prefix, "it is not a plain lower-case SQL identifier",
                    "letters a-z, digits and '_', not starting with a digit, at most 41 characters");
        }
        try {
            return JdbcSessionStateStore.open(database, prefix);
        } catch (SQLException e) {
            throw CHECKS.invalid("table-prefix", prefix, "the table " + prefix + "_sessions cannot be created in the"
                    + " DataSource's database: " + e.getMessage(), "a reachable PostgreSQL the DataSource's user may"
                    + " create a table in", e);
        }
    }
}
