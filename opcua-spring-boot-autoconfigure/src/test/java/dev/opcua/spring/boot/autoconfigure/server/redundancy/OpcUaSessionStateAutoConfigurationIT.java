package dev.opcua.spring.boot.autoconfigure.server.redundancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.autoconfigure.diagnostics.StartupFailures;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.stack.history.jdbc.TestPostgres;
import dev.opcua.stack.history.jdbc.state.JdbcSessionStateStore;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.redundancy.RedundancyMode;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code opcua.server.redundancy.mode=hot-and-mirrored} on a real PostgreSQL: the server keeps its sessions in
 * {@code <table-prefix>_sessions} of the application's DataSource; a wrong prefix stops the start naming its key.
 */
class OpcUaSessionStateAutoConfigurationIT {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaSessionStateAutoConfiguration.class,
                    OpcUaServerAutoConfiguration.class))
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
                    "opcua.server.application-uri=urn:test:mirrored:a", "opcua.server.redundancy.mode=hot-and-mirrored",
                    "opcua.server.redundancy.partners[0].server-uri=urn:test:mirrored:b",
                    "opcua.server.redundancy.partners[0].endpoint-url=opc.tcp://host-b:4842");

    @Test
    void hot_and_mirrored_keeps_the_sessions_in_the_postgresql_of_the_applications_data_source() throws Exception {
        DataSource database = TestPostgres.dataSource();
        contextRunner.withBean(DataSource.class, () -> database)
                .withPropertyValues("opcua.server.redundancy.state-store.table-prefix=ctx_mirrored",
                        "opcua.server.redundancy.state-store.mirror-interval=250ms")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    OpcUaServer server = context.getBean(OpcUaServer.class);
                    assertThat(server.config().redundancy().mode()).isEqualTo(RedundancyMode.HotAndMirrored);
                    assertThat(server.config().sessionStateStore()).isInstanceOf(JdbcSessionStateStore.class);
                    assertThat(((JdbcSessionStateStore) server.config().sessionStateStore()).table())
                            .isEqualTo("ctx_mirrored_sessions");
                    assertThat(server.config().sessionMirrorSettings().interval()).isEqualTo(Duration.ofMillis(250));
                    assertThat(server.sessionMirror()).isNotNull();
                });
    }

    @Test
    void a_table_prefix_that_is_no_sql_identifier_stops_the_start_naming_its_key() throws Exception {
        DataSource database = TestPostgres.dataSource();
        contextRunner.withBean(DataSource.class, () -> database)
                .withPropertyValues("opcua.server.redundancy.state-store.table-prefix=Drop Table")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(StartupFailures.analyze(context.getStartupFailure()).getDescription())
                            .contains("opcua.server.redundancy.state-store.table-prefix").contains("Drop Table");
                });
    }
}
