package dev.opcua.spring.boot.autoconfigure.server.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.autoconfigure.server.InvalidOpcUaServerPropertyException;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.server.annotation.OpcUaAnnotationAutoConfiguration;
import dev.opcua.stack.history.embedded.EmbeddedHistoryStore;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.InMemoryHistoryStore;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code opcua.server.history.*}: the store chosen (embedded, memory, the application's) and the settings
 * validated by name. {@link OpcUaHistoryMiloEndToEndIT} records and reads history with a client.
 */
class OpcUaHistoryAutoConfigurationTest {

    @TempDir
    Path directory;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                    OpcUaAnnotationAutoConfiguration.class, OpcUaHistoryAutoConfiguration.class))
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
                    "opcua.server.application-uri=urn:test:history");

    @Configuration(proxyBeanMethods = false)
    static class OwnStoreConfiguration {
        @Bean
        HistoryStore myStore() {
            return new InMemoryHistoryStore();
        }
    }

    @Test
    void history_is_off_unless_enabled() {
        contextRunner.run(context -> assertThat(context).doesNotHaveBean(HistoryStore.class));
    }

    @Test
    void the_embedded_store_is_the_default_and_lives_in_the_directory() {
        contextRunner.withPropertyValues("opcua.server.history.enabled=true",
                "opcua.server.history.directory=" + directory, "opcua.server.history.sync=operating-system")
                .run(context -> {
                    assertThat(context).hasSingleBean(HistoryStore.class);
                    assertThat(context.getBean(HistoryStore.class)).isInstanceOf(EmbeddedHistoryStore.class);
                    assertThat(directory.resolve(EmbeddedHistoryStore.FILE_NAME)).exists();
                });
    }

    @Test
    void an_application_store_wins() {
        contextRunner.withUserConfiguration(OwnStoreConfiguration.class)
                .withPropertyValues("opcua.server.history.enabled=true")
                .run(context -> assertThat(context).getBean(HistoryStore.class)
                        .isSameAs(context.getBean("myStore")));
    }

    @Test
    void invalid_settings_are_refused_by_name() {
        contextRunner.withPropertyValues("opcua.server.history.enabled=true", "opcua.server.history.store=memory",
                "opcua.server.history.max-continuation-points=0").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(invalidProperty(context.getStartupFailure()))
                            .hasMessageContaining("opcua.server.history.max-continuation-points");
                });
        contextRunner.withPropertyValues("opcua.server.history.enabled=true", "opcua.server.history.store=memory",
                "opcua.server.history.nodes[0]=not a node").run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(invalidProperty(context.getStartupFailure()))
                            .hasMessageContaining("opcua.server.history.nodes[0]");
                });
        contextRunner.withPropertyValues("opcua.server.history.enabled=true", "opcua.server.history.store=memory",
                "opcua.server.history.event-notifiers[0]=i=2253", "opcua.server.history.event-notifiers[1]=Server")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(invalidProperty(context.getStartupFailure()))
                            .hasMessageContaining("opcua.server.history.event-notifiers[1]");
                });
    }

    /** The property failure in a startup failure's causes. */
    private static InvalidOpcUaServerPropertyException invalidProperty(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof InvalidOpcUaServerPropertyException invalid) {
                return invalid;
            }
        }
        throw new AssertionError("no InvalidOpcUaServerPropertyException in " + failure, failure);
    }
}
