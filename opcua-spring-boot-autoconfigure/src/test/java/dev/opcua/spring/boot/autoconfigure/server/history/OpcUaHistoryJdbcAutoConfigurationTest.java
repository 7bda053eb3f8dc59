package dev.opcua.spring.boot.autoconfigure.server.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verifyNoInteractions;

import dev.opcua.spring.boot.autoconfigure.diagnostics.InvalidOpcUaPropertyException;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.stack.history.jdbc.JdbcHistoryOptions;
import dev.opcua.stack.history.jdbc.JdbcHistoryStore;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.InMemoryHistoryStore;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code opcua.server.history.store=jdbc} up to the point where the store would open: when the JDBC store is
 * configured, the binding of {@code opcua.server.history.jdbc.*} and the starts refused by key, on a data
 * source no test may use. {@link OpcUaHistoryJdbcAutoConfigurationIT} opens the store on PostgreSQL.
 */
class OpcUaHistoryJdbcAutoConfigurationTest {

    private final DataSource dataSource = mock(DataSource.class);

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaHistoryJdbcAutoConfiguration.class,
                    OpcUaHistoryAutoConfiguration.class, OpcUaServerAutoConfiguration.class))
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
                    "opcua.server.history.enabled=true");

    @AfterEach
    void noStoreTouchedTheDatabase() {
        verifyNoInteractions(dataSource);
    }

    @Test
    void without_history_enabled_no_store_is_configured() {
        contextRunner.withBean(DataSource.class, () -> dataSource)
                .withPropertyValues("opcua.server.history.enabled=false", "opcua.server.history.store=jdbc")
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(HistoryStore.class)
                            .doesNotHaveBean(OpcUaHistoryJdbcProperties.class);
                    assertThat(context.getBean(OpcUaServer.class).historyRecorder()).isNull();
                });
    }

    @Test
    void backs_off_when_the_server_is_disabled() {
        contextRunner.withBean(DataSource.class, () -> dataSource)
                .withPropertyValues("opcua.server.enabled=false", "opcua.server.history.store=jdbc")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(HistoryStore.class)
                        .doesNotHaveBean(OpcUaHistoryJdbcProperties.class));
    }

    @Test
    void the_applications_own_history_store_wins() {
        contextRunner.withBean(DataSource.class, () -> dataSource)
                .withBean(HistoryStore.class, InMemoryHistoryStore::new)
                .withPropertyValues("opcua.server.history.store=jdbc")
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(JdbcHistoryStore.class);
                    assertThat(context.getBean(HistoryStore.class)).isInstanceOf(InMemoryHistoryStore.class);
                    assertThat(context.getBean(OpcUaServer.class).historyRecorder()).isNotNull();
                });
    }

    @Test
    void the_defaults_are_the_stores_own() {
        assertThat(OpcUaHistoryJdbcAutoConfiguration.options(new OpcUaHistoryJdbcProperties()))
                .isEqualTo(JdbcHistoryOptions.DEFAULT);
    }

    @Test
    void every_property_is_bound() {
        contextRunner.withBean(DataSource.class, () -> dataSource)
                .withBean(HistoryStore.class, InMemoryHistoryStore::new)
                .withPropertyValues("opcua.server.history.store=jdbc", "opcua.server.history.jdbc.table=plant_history",
                        "opcua.server.history.jdbc.batch-size=50", "opcua.server.history.jdbc.buffer-capacity=500",
                        "opcua.server.history.jdbc.flush-interval=50ms", "opcua.server.history.jdbc.io-threads=3",
                        "opcua.server.history.jdbc.timescale=false")
                .run(context -> assertThat(OpcUaHistoryJdbcAutoConfiguration.options(
                        context.getBean(OpcUaHistoryJdbcProperties.class))).isEqualTo(
                                new JdbcHistoryOptions("plant_history", 50, 500, Duration.ofMillis(50), 3, false)));
    }

    @Test
    void without_a_data_source_the_start_fails_naming_the_store_key() {
        contextRunner.withPropertyValues("opcua.server.history.store=jdbc").run(context ->
                assertThat(context).getFailure().rootCause().isInstanceOf(InvalidOpcUaPropertyException.class)
                        .hasMessageContaining("opcua.server.history.store").hasMessageContaining("DataSource"));
    }

    @Test
    void invalid_properties_are_reported_with_their_key() {
        ApplicationContextRunner storeOnly = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OpcUaHistoryJdbcAutoConfiguration.class))
                .withPropertyValues("opcua.server.history.enabled=true");
        storeOnly.withBean(DataSource.class, () -> dataSource)
                .withPropertyValues("opcua.server.history.store=jdbc", "opcua.server.history.jdbc.table=Plant-History")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .isInstanceOf(InvalidOpcUaPropertyException.class)
                        .hasMessageContaining("opcua.server.history.jdbc.table").hasMessageContaining("Plant-History"));
        storeOnly.withBean(DataSource.class, () -> dataSource)
                .withPropertyValues("opcua.server.history.store=jdbc", "opcua.server.history.jdbc.batch-size=500",
                        "opcua.server.history.jdbc.buffer-capacity=100")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .isInstanceOf(InvalidOpcUaPropertyException.class)
                        .hasMessageContaining("opcua.server.history.jdbc.buffer-capacity"));
    }
}
