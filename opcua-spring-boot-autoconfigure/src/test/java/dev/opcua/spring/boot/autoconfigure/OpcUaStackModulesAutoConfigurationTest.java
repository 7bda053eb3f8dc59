package dev.opcua.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

import dev.opcua.spring.boot.actuate.metrics.OpcUaClientMetricsBinder;
import dev.opcua.spring.boot.actuate.metrics.OpcUaServerMetricsBinder;
import dev.opcua.spring.boot.autoconfigure.diagnostics.InvalidOpcUaPropertyException;
import dev.opcua.spring.boot.client.OpcUaClientLifecycle;
import dev.opcua.spring.boot.client.OpcUaClients;
import dev.opcua.spring.boot.client.listener.OpcUaListenerEndpointRegistry;
import dev.opcua.spring.boot.server.OpcUaServerCustomizer;
import dev.opcua.spring.boot.server.OpcUaServerLifecycle;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.InMemoryHistoryStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.util.ClassUtils;

/**
 * Every stack module is an optional dependency of the auto-configuration: with all of this module's
 * auto-configurations, a class path that lacks the server, the client or a history store's module starts with
 * what is there, and a store named in the properties whose module is missing stops the start naming the module.
 */
class OpcUaStackModulesAutoConfigurationTest {

    private static final String SERVER = "dev.opcua.stack.server.";
    private static final String CLIENT = "dev.opcua.stack.client.";
    private static final String EMBEDDED_STORE = "dev.opcua.stack.history.embedded.";
    private static final String JDBC_STORE = "dev.opcua.stack.history.jdbc.";

    /** One PKI directory for all servers of these tests: one key pair to make. */
    @TempDir
    static Path pkiDir;

    @TempDir
    Path historyDir;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ourAutoConfigurations()))
            .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
                    "opcua.server.security.policies=None", "opcua.server.security.pki-dir=" + pkiDir,
                    "opcua.client.connections.plant.endpoint-url=opc.tcp://localhost:4840/",
                    "opcua.client.connections.plant.connect-on-start=false");

    /** The auto-configurations this module registers, as an application finds them. */
    static Class<?>[] ourAutoConfigurations() {
        ClassLoader loader = OpcUaStackModulesAutoConfigurationTest.class.getClassLoader();
        return ImportCandidates.load(AutoConfiguration.class, loader).getCandidates().stream()
                .filter(name -> name.startsWith("dev.opcua."))
                .map(name -> ClassUtils.resolveClassName(name, loader))
                .toArray(Class<?>[]::new);
    }

    private ApplicationContextRunner withHistory(String store) {
        return contextRunner.withPropertyValues("opcua.server.history.enabled=true",
                "opcua.server.history.store=" + store, "opcua.server.history.directory=" + historyDir);
    }

    @Test
    void all_auto_configurations_of_the_module_are_found() {
        assertThat(ourAutoConfigurations()).hasSizeGreaterThanOrEqualTo(14);
    }

    @Test
    void a_client_only_class_path_makes_the_client_beans_and_no_server_bean() {
        withHistory("embedded")
                .withClassLoader(new FilteredClassLoader(SERVER, EMBEDDED_STORE, JDBC_STORE))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(OpcUaClient.class).hasSingleBean(OpcUaClients.class)
                            .hasSingleBean(OpcUaClientLifecycle.class)
                            .hasSingleBean(OpcUaListenerEndpointRegistry.class)
                            .hasSingleBean(OpcUaClientMetricsBinder.class);
                    assertThat(context).doesNotHaveBean(OpcUaServer.class)
                            .doesNotHaveBean(OpcUaServerLifecycle.class)
                            .doesNotHaveBean(OpcUaServerCustomizer.class)
                            .doesNotHaveBean(HistoryStore.class)
                            .doesNotHaveBean(OpcUaServerMetricsBinder.class);
                });
    }

    @Test
    void a_server_only_class_path_makes_the_server_beans_and_no_client_bean() {
        withHistory("embedded")
                .withClassLoader(new FilteredClassLoader(CLIENT, JDBC_STORE))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(OpcUaServer.class).hasSingleBean(OpcUaServerLifecycle.class)
                            .hasSingleBean(HistoryStore.class)
                            .hasSingleBean(OpcUaServerMetricsBinder.class);
                    assertThat(context.getBean(OpcUaServer.class).historyRecorder()).isNotNull();
                    assertThat(context).doesNotHaveBean(OpcUaClient.class)
                            .doesNotHaveBean(OpcUaClients.class)
                            .doesNotHaveBean(OpcUaClientLifecycle.class)
                            .doesNotHaveBean(OpcUaListenerEndpointRegistry.class)
                            .doesNotHaveBean(OpcUaClientMetricsBinder.class);
                });
    }

    @Test
    void the_memory_store_needs_no_store_module() {
        withHistory("memory")
                .withClassLoader(new FilteredClassLoader(EMBEDDED_STORE, JDBC_STORE))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(HistoryStore.class)).isInstanceOf(InMemoryHistoryStore.class);
                });
    }

    @Test
    void without_the_jdbc_store_module_store_jdbc_stops_the_start_naming_the_module() {
        withHistory("jdbc")
                .withBean(DataSource.class, () -> mock(DataSource.class))
                .withClassLoader(new FilteredClassLoader(JDBC_STORE))
                .run(context -> assertThat(context).getFailure().rootCause()
                        .isInstanceOf(InvalidOpcUaPropertyException.class)
                        .hasMessageContaining("opcua.server.history.store=jdbc")
                        .hasMessageContaining("dev.opcua:opcua-stack-history-jdbc")
                        .hasMessageNotContaining("DataSource"));
    }

    @Test
    void without_the_embedded_store_module_the_default_store_stops_the_start_naming_the_module() {
        contextRunner.withPropertyValues("opcua.server.history.enabled=true")
                .withClassLoader(new FilteredClassLoader(EMBEDDED_STORE))
                .run(context -> assertThat(context).getFailure().rootCause()
                        .isInstanceOf(InvalidOpcUaPropertyException.class)
                        .hasMessageContaining("opcua.server.history.store=embedded")
                        .hasMessageContaining("dev.opcua:opcua-stack-history-embedded"));
    }
}
