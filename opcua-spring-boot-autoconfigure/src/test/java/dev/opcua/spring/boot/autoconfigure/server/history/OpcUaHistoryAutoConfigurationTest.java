package dev.opcua.spring.boot.autoconfigure.server.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.autoconfigure.server.InvalidOpcUaServerPropertyException;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.server.annotation.OpcUaAnnotationAutoConfiguration;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.history.embedded.EmbeddedHistoryStore;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.OpcUaServerConfig;
import dev.opcua.stack.server.history.HistoryRecording;
import dev.opcua.stack.server.history.HistoryRetention;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.InMemoryHistoryStore;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.services.history.HistorySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code opcua.server.history.*}: the store chosen (embedded, memory, the application's), the back-off with
 * the server, the binding of every property and the settings validated by name. {@link OpcUaHistoryMiloEndToEndIT} records and reads history with a client.
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
                    assertThat(context).hasSingleBean(
                            dev.opcua.stack.history.embedded.MVStoreDurableSubscriptionStore.class);
                    assertThat(directory.resolve(
                            dev.opcua.stack.history.embedded.MVStoreDurableSubscriptionStore.FILE_NAME))
                            .as("durable subscriptions are kept beside the history").exists();
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
    void backs_off_when_the_server_is_disabled() {
        contextRunner.withPropertyValues("opcua.server.enabled=false", "opcua.server.history.enabled=true")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(HistoryStore.class)
                        .doesNotHaveBean(OpcUaHistoryProperties.class));
    }

    @Test
    void backs_off_without_the_stack_server_on_the_classpath() {
        contextRunner.withClassLoader(new FilteredClassLoader(OpcUaServer.class))
                .withPropertyValues("opcua.server.history.enabled=true")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(HistoryStore.class)
                        .doesNotHaveBean(OpcUaHistoryProperties.class));
    }

    @Test
    void the_defaults_are_the_stacks_own() {
        contextRunner.withPropertyValues("opcua.server.history.enabled=true", "opcua.server.history.store=memory")
                .run(context -> {
                    OpcUaServerConfig config = context.getBean(OpcUaServer.class).config();
                    assertThat(config.historySettings()).isEqualTo(HistorySettings.DEFAULT);
                    assertThat(config.historyRecording()).isEqualTo(HistoryRecording.DEFAULT);
                });
    }

    @Test
    void every_property_is_bound() {
        InMemoryNodeManager plant = InMemoryNodeManager.builder("urn:test:history:plant")
                .variable("Speed", BuiltinType.Double, v -> v.value(Variant.ofDouble(1.5)))
                .build();
        contextRunner.withBean(InMemoryNodeManager.class, () -> plant)
                .withPropertyValues("opcua.server.history.enabled=true", "opcua.server.history.store=memory",
                        "opcua.server.history.directory=" + directory, "opcua.server.history.sync=operating-system",
                        "opcua.server.history.nodes[0]=nsu=urn:test:history:plant;s=Speed",
                        "opcua.server.history.nodes-writable=true",
                        "opcua.server.history.event-notifiers[0]=i=2253",
                        "opcua.server.history.event-notifiers-writable=true",
                        "opcua.server.history.sampling-interval=250ms", "opcua.server.history.max-age=7d",
                        "opcua.server.history.max-size=64MB", "opcua.server.history.retention-check-interval=30s",
                        "opcua.server.history.max-continuation-points=4",
                        "opcua.server.history.max-return-data-values=500",
                        "opcua.server.history.max-nodes-per-read=20", "opcua.server.history.max-nodes-per-update=30")
                .run(context -> {
                    OpcUaHistoryProperties properties = context.getBean(OpcUaHistoryProperties.class);
                    assertThat(properties.getStore()).isEqualTo(OpcUaHistoryProperties.StoreType.MEMORY);
                    assertThat(properties.getDirectory()).isEqualTo(directory);
                    assertThat(properties.getSync()).isEqualTo(OpcUaHistoryProperties.Sync.OPERATING_SYSTEM);
                    OpcUaServerConfig config = context.getBean(OpcUaServer.class).config();
                    assertThat(config.historySettings()).isEqualTo(new HistorySettings(20, 0, 30, 0, 4, 500));
                    assertThat(config.historyRecording()).isEqualTo(new HistoryRecording(
                            Set.of(ExpandedNodeId.parse("nsu=urn:test:history:plant;s=Speed")), true,
                            Duration.ofMillis(250), new HistoryRetention(Duration.ofDays(7), 64L * 1024 * 1024),
                            Duration.ofSeconds(30), Set.of(ExpandedNodeId.parse("i=2253")), true));
                });
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
