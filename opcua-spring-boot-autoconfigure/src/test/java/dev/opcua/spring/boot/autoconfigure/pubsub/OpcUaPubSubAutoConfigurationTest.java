package dev.opcua.spring.boot.autoconfigure.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.spring.boot.actuate.health.OpcUaPubSubHealthIndicator;
import dev.opcua.spring.boot.autoconfigure.actuate.OpcUaPubSubActuatorAutoConfiguration;
import dev.opcua.spring.boot.pubsub.OpcUaPubSubLifecycle;
import dev.opcua.spring.boot.pubsub.OpcUaPubSubListener;
import dev.opcua.stack.pubsub.runtime.InMemoryDataSetSource;
import dev.opcua.stack.pubsub.runtime.ReceivedDataSet;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.moquette.broker.Server;
import io.moquette.broker.config.MemoryConfig;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code opcua.pubsub.*} end to end through a real broker (Moquette in this JVM): an application that publishes a
 * data set and reads it back with an {@code @OpcUaPubSubListener}; the health, the meters, and the start-up
 * report for wrong properties.
 */
class OpcUaPubSubAutoConfigurationTest {

    private static Server broker;
    private static int port;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaPubSubAutoConfiguration.class,
                    OpcUaPubSubActuatorAutoConfiguration.class));

    @BeforeAll
    static void startBroker() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Properties properties = new Properties();
        properties.setProperty("host", "127.0.0.1");
        properties.setProperty("port", Integer.toString(port));
        properties.setProperty("allow_anonymous", "true");
        properties.setProperty("persistence_enabled", "false");
        properties.setProperty("telemetry_enabled", "false");
        properties.setProperty("netty.epoll", "false");
        properties.setProperty("netty.mqtt.message_size", Integer.toString(1 << 20));
        broker = new Server();
        broker.startServer(new MemoryConfig(properties));
    }

    @AfterAll
    static void stopBroker() {
        broker.stopServer();
    }

    @Test
    void pubsub_is_off_by_default() {
        runner.run(context -> assertThat(context).doesNotHaveBean(OpcUaPubSubLifecycle.class));
    }

    @Test
    void an_application_publishes_a_data_set_and_reads_it_back_through_a_listener() {
        runner.withUserConfiguration(Line.class)
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withPropertyValues("opcua.pubsub.enabled=true", "opcua.pubsub.publisher-id=plant-7",
                        "opcua.pubsub.mqtt.broker-url=tcp://127.0.0.1:" + port,
                        "opcua.pubsub.data-sets.Line.fields.Speed.type=Double",
                        "opcua.pubsub.data-sets.Line.fields.State.type=String",
                        "opcua.pubsub.writer-groups.line.publishing-interval=50ms",
                        "opcua.pubsub.writer-groups.line.writers.w.data-set=Line",
                        "opcua.pubsub.readers.back.publisher-id=plant-7",
                        "opcua.pubsub.readers.back.writer-group=line",
                        "opcua.pubsub.readers.back.data-set-writer-id=1")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    InMemoryDataSetSource values = context.getBean(InMemoryDataSetSource.class);
                    Line line = context.getBean(Line.class);
                    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                        values.set("Line", "Speed", 512.5);
                        values.set("Line", "State", "RUNNING");
                        assertThat(line.speeds).contains(512.5);
                    });
                    assertThat(line.dataSets).isNotEmpty();
                    assertThat(line.dataSets.get(line.dataSets.size() - 1).fields()).containsKeys("Speed", "State");
                    assertThat(context.getBean(OpcUaPubSubHealthIndicator.class).health(true).getStatus())
                            .isEqualTo(Status.UP);
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    context.getBean(dev.opcua.spring.boot.actuate.metrics.OpcUaPubSubMetrics.class).bindTo(registry);
                    assertThat(registry.get("opcua.pubsub.messages.sent").functionCounter().count()).isPositive();
                    assertThat(registry.get("opcua.pubsub.datasets.received").functionCounter().count()).isPositive();
                });
    }

    @Test
    void a_wrong_property_stops_the_start_naming_key_and_value() {
        runner.withPropertyValues("opcua.pubsub.enabled=true", "opcua.pubsub.mqtt.broker-url=tcp://127.0.0.1:" + port,
                        "opcua.pubsub.data-sets.Line.fields.Speed.type=Duble",
                        "opcua.pubsub.writer-groups.line.writers.w.data-set=Line")
                .run(context -> {
                    assertThat(context).hasFailed();
                    Throwable failure = context.getStartupFailure();
                    while (failure != null && !(failure instanceof InvalidOpcUaPubSubPropertyException)) {
                        failure = failure.getCause();
                    }
                    assertThat(failure).isNotNull();
                    assertThat(failure.getMessage()).contains("opcua.pubsub.data-sets.Line.fields.Speed.type=Duble")
                            .contains("not a built-in type");
                });
    }

    @Test
    void a_writer_naming_an_unknown_data_set_stops_the_start() {
        runner.withPropertyValues("opcua.pubsub.enabled=true", "opcua.pubsub.mqtt.broker-url=tcp://127.0.0.1:" + port,
                        "opcua.pubsub.data-sets.Line.fields.Speed.type=Double",
                        "opcua.pubsub.writer-groups.line.writers.w.data-set=Lines")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause()
                            .hasMessageContaining("opcua.pubsub.writer-groups.line.writers.w.data-set=Lines")
                            .hasMessageContaining("there is no data set of that name");
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class Line {
        final List<Double> speeds = new CopyOnWriteArrayList<>();
        final List<ReceivedDataSet> dataSets = new CopyOnWriteArrayList<>();

        @Bean
        static InMemoryDataSetSource lineValues() {
            return new InMemoryDataSetSource();
        }

        @OpcUaPubSubListener(reader = "back", field = "Speed")
        void onSpeed(double speed) {
            speeds.add(speed);
        }

        @OpcUaPubSubListener(reader = "back")
        void onLine(ReceivedDataSet dataSet) {
            dataSets.add(dataSet);
        }
    }
}
