package dev.opcua.spring.boot.autoconfigure.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.spring.boot.actuate.health.OpcUaPubSubHealthIndicator;
import dev.opcua.spring.boot.autoconfigure.actuate.OpcUaPubSubActuatorAutoConfiguration;
import dev.opcua.spring.boot.pubsub.OpcUaPubSubLifecycle;
import dev.opcua.spring.boot.pubsub.OpcUaPubSubListener;
import dev.opcua.stack.pubsub.config.DataSetWriterConfig;
import dev.opcua.stack.pubsub.config.PubSubConnectionConfig;
import dev.opcua.stack.pubsub.message.PublisherId;
import dev.opcua.stack.pubsub.runtime.InMemoryDataSetSource;
import dev.opcua.stack.pubsub.runtime.PubSubService;
import dev.opcua.stack.pubsub.runtime.ReceivedDataSet;
import dev.opcua.stack.pubsub.transport.QualityOfService;
import dev.opcua.stack.pubsub.transport.mqtt.MqttSettings;
import dev.opcua.stack.pubsub.transport.mqtt.MqttTopicTree;
import dev.opcua.stack.pubsub.transport.mqtt.MqttTopics;
import dev.opcua.stack.pubsub.transport.mqtt.MqttTransport;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
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
 * data set and reads it back with an {@code @OpcUaPubSubListener}; several connections; the JSON field encoding
 * of a writer group; the health, the meters, and the start-up report for wrong properties.
 */
class OpcUaPubSubAutoConfigurationTest {

    private static TestMqttBroker broker;
    private static int port;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaPubSubAutoConfiguration.class,
                    OpcUaPubSubActuatorAutoConfiguration.class));

    @BeforeAll
    static void startBroker() {
        broker = TestMqttBroker.start();
        port = broker.port();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
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

    @Test
    void several_connections_publish_with_their_own_publisher_ids_and_read_each_other() {
        runner.withUserConfiguration(TwoPlants.class)
                .withPropertyValues("opcua.pubsub.enabled=true", "opcua.pubsub.publisher-id=plant-1",
                        "opcua.pubsub.mqtt.broker-url=tcp://127.0.0.1:" + port,
                        "opcua.pubsub.data-sets.Line.fields.Speed.type=Double",
                        "opcua.pubsub.writer-groups.line1.publishing-interval=50ms",
                        "opcua.pubsub.writer-groups.line1.writers.w.data-set=Line",
                        "opcua.pubsub.readers.from2.publisher-id=plant-2",
                        "opcua.pubsub.readers.from2.writer-group=line2",
                        "opcua.pubsub.readers.from2.data-set-writer-id=1",
                        "opcua.pubsub.connections.plant2.publisher-id=plant-2",
                        "opcua.pubsub.connections.plant2.mqtt.broker-url=mqtt://127.0.0.1:" + port,
                        "opcua.pubsub.connections.plant2.writer-groups.line2.publishing-interval=50ms",
                        "opcua.pubsub.connections.plant2.writer-groups.line2.writers.w.data-set=Line",
                        "opcua.pubsub.connections.plant2.readers.from1.publisher-id=plant-1",
                        "opcua.pubsub.connections.plant2.readers.from1.writer-group=line1",
                        "opcua.pubsub.connections.plant2.readers.from1.data-set-writer-id=1")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    PubSubService service = context.getBean(OpcUaPubSubLifecycle.class).getService();
                    assertThat(service.connections()).extracting(PubSubConnectionConfig::name)
                            .containsExactly("default", "plant2");
                    assertThat(service.connections()).extracting(PubSubConnectionConfig::publisherId)
                            .containsExactly(PublisherId.ofString("plant-1"), PublisherId.ofString("plant-2"));
                    // each PublisherId numbers its own writers
                    assertThat(service.connections()).allSatisfy(c -> assertThat(c.writerGroups().get(0).writers())
                            .extracting(DataSetWriterConfig::id).containsExactly(1));
                    InMemoryDataSetSource values = context.getBean(InMemoryDataSetSource.class);
                    TwoPlants plants = context.getBean(TwoPlants.class);
                    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                        values.set("Line", "Speed", 7.5);
                        assertThat(plants.fromPlant1).contains(7.5);
                        assertThat(plants.fromPlant2).contains(7.5);
                    });
                    var health = context.getBean(OpcUaPubSubHealthIndicator.class).health(true);
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat(health.getDetails().get("connections"))
                            .isEqualTo(Map.of("default", true, "plant2", true));
                });
    }

    @Test
    void a_connection_without_a_default_one_and_an_error_naming_the_connection_key() {
        runner.withPropertyValues("opcua.pubsub.enabled=true",
                        "opcua.pubsub.data-sets.Line.fields.Speed.type=Double",
                        "opcua.pubsub.connections.plant2.writer-groups.line.writers.w.data-set=Line")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause()
                            .hasMessageContaining("opcua.pubsub.connections.plant2.mqtt.broker-url")
                            .hasMessageContaining("it is not set");
                });
        runner.withPropertyValues("opcua.pubsub.enabled=true",
                        "opcua.pubsub.connections.plant2.mqtt.broker-url=tcp://127.0.0.1:" + port,
                        "opcua.pubsub.connections.plant2.readers.r.publisher-id=7",
                        "opcua.pubsub.connections.plant2.readers.r.writer-group=g",
                        "opcua.pubsub.connections.plant2.readers.r.data-set-writer-id=1")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(OpcUaPubSubLifecycle.class).getService().connectionStates())
                            .containsOnlyKeys("plant2");
                });
    }

    @Test
    void writer_ids_are_unique_per_publisher_id_across_connections() {
        String[] common = {"opcua.pubsub.enabled=true", "opcua.pubsub.publisher-id=plant-1",
                "opcua.pubsub.mqtt.broker-url=tcp://127.0.0.1:" + port,
                "opcua.pubsub.data-sets.Line.fields.Speed.type=Double",
                "opcua.pubsub.writer-groups.a.writers.w.data-set=Line",
                "opcua.pubsub.connections.plant2.mqtt.broker-url=tcp://127.0.0.1:" + port,
                "opcua.pubsub.connections.plant2.writer-groups.b.writers.w.data-set=Line"};
        // the same PublisherId: the second connection's writer numbers on
        runner.withPropertyValues(common).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(OpcUaPubSubLifecycle.class).getService().connections())
                    .extracting(c -> c.writerGroups().get(0).writers().get(0).id()).containsExactly(1, 2);
        });
        runner.withPropertyValues(common)
                .withPropertyValues("opcua.pubsub.connections.plant2.writer-groups.b.writers.w.id=1")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause()
                            .hasMessageContaining("opcua.pubsub.connections.plant2.writer-groups.b.writers.w.id=1")
                            .hasMessageContaining("another writer of PublisherId");
                });
        // another PublisherId may use the same id
        runner.withPropertyValues(common)
                .withPropertyValues("opcua.pubsub.connections.plant2.writer-groups.b.writers.w.id=1",
                        "opcua.pubsub.connections.plant2.publisher-id=plant-2")
                .run(context -> assertThat(context).hasNotFailed());
        // a writer group name is taken application-wide
        runner.withPropertyValues(common)
                .withPropertyValues("opcua.pubsub.connections.plant2.writer-groups.a.writers.w.data-set=Line")
                .run(context -> assertThat(context.getStartupFailure()).rootCause()
                        .hasMessageContaining("opcua.pubsub.connections.plant2.writer-groups.a")
                        .hasMessageContaining("the writer group opcua.pubsub.writer-groups.a has this name"));
        // the top-level keys are the connection named default
        runner.withPropertyValues(common)
                .withPropertyValues("opcua.pubsub.connections.default.mqtt.broker-url=tcp://127.0.0.1:" + port)
                .run(context -> assertThat(context.getStartupFailure()).rootCause()
                        .hasMessageContaining("opcua.pubsub.connections.default.mqtt.broker-url"));
    }

    @Test
    void a_variant_writer_group_writes_every_field_as_a_variant_object() throws Exception {
        MqttTopicTree topics = MqttTopicTree.withPrefix("opcua");
        PublisherId publisher = PublisherId.ofString("plant-9");
        Map<String, String> payloads = new ConcurrentHashMap<>();
        MqttTransport spy = new MqttTransport(MqttSettings.builder("tcp://127.0.0.1:" + port)
                .clientId("spy-" + System.nanoTime()).build());
        try {
            spy.start().get(10, TimeUnit.SECONDS);
            for (String group : List.of("verbose", "variant")) {
                spy.subscribe(topics.data(MqttTopics.Encoding.JSON, publisher, group), QualityOfService.AT_LEAST_ONCE,
                        (topic, payload) -> payloads.put(group, new String(payload, StandardCharsets.UTF_8)))
                        .get(10, TimeUnit.SECONDS);
            }
            runner.withUserConfiguration(Line.class)
                    .withPropertyValues("opcua.pubsub.enabled=true", "opcua.pubsub.publisher-id=plant-9",
                            "opcua.pubsub.mqtt.broker-url=tcp://127.0.0.1:" + port,
                            "opcua.pubsub.data-sets.Line.fields.Speed.type=Double",
                            "opcua.pubsub.data-sets.Line.fields.State.type=String",
                            "opcua.pubsub.writer-groups.verbose.publishing-interval=50ms",
                            "opcua.pubsub.writer-groups.verbose.writers.a.data-set=Line",
                            "opcua.pubsub.writer-groups.variant.publishing-interval=50ms",
                            "opcua.pubsub.writer-groups.variant.field-encoding=variant",
                            "opcua.pubsub.writer-groups.variant.writers.b.data-set=Line",
                            "opcua.pubsub.readers.back.publisher-id=plant-9",
                            "opcua.pubsub.readers.back.writer-group=variant",
                            "opcua.pubsub.readers.back.data-set-writer-id=2")
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        InMemoryDataSetSource values = context.getBean(InMemoryDataSetSource.class);
                        Line line = context.getBean(Line.class);
                        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                            values.set("Line", "Speed", 33.25);
                            values.set("Line", "State", "RUNNING");
                            assertThat(payloads.get("variant")).contains("33.25");
                            assertThat(payloads.get("verbose")).contains("33.25");
                            // a reader of the variant form decodes it
                            assertThat(line.speeds).contains(33.25);
                        });
                        assertThat(payloads.get("variant")).contains("\"Speed\":{\"UaType\":11,\"Value\":33.25}")
                                .contains("\"State\":{\"UaType\":12,\"Value\":\"RUNNING\"}");
                        assertThat(payloads.get("verbose")).contains("\"Speed\":33.25").doesNotContain("UaType");
                    });
        } finally {
            spy.close();
        }
    }

    @Test
    void a_wrong_field_encoding_names_its_key() {
        runner.withPropertyValues("opcua.pubsub.enabled=true", "opcua.pubsub.mqtt.broker-url=tcp://127.0.0.1:" + port,
                        "opcua.pubsub.data-sets.Line.fields.Speed.type=Double",
                        "opcua.pubsub.connections.p2.mqtt.broker-url=tcp://127.0.0.1:" + port,
                        "opcua.pubsub.connections.p2.writer-groups.line.field-encoding=compact",
                        "opcua.pubsub.connections.p2.writer-groups.line.writers.w.data-set=Line")
                .run(context -> assertThat(context.getStartupFailure()).rootCause()
                        .hasMessageContaining("opcua.pubsub.connections.p2.writer-groups.line.field-encoding=compact")
                        .hasMessageContaining("verbose (bare values, the default) or variant"));
        runner.withPropertyValues("opcua.pubsub.enabled=true", "opcua.pubsub.mqtt.broker-url=tcp://127.0.0.1:" + port,
                        "opcua.pubsub.data-sets.Line.fields.Speed.type=Double",
                        "opcua.pubsub.writer-groups.line.encoding=uadp",
                        "opcua.pubsub.writer-groups.line.field-encoding=variant",
                        "opcua.pubsub.writer-groups.line.writers.w.data-set=Line")
                .run(context -> assertThat(context.getStartupFailure()).rootCause()
                        .hasMessageContaining("opcua.pubsub.writer-groups.line.field-encoding=variant")
                        .hasMessageContaining("belongs to the json mapping"));
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoPlants {
        final List<Double> fromPlant1 = new CopyOnWriteArrayList<>();
        final List<Double> fromPlant2 = new CopyOnWriteArrayList<>();

        @Bean
        static InMemoryDataSetSource plantValues() {
            return new InMemoryDataSetSource();
        }

        @OpcUaPubSubListener(reader = "from1", field = "Speed")
        void onPlant1(double speed) {
            fromPlant1.add(speed);
        }

        @OpcUaPubSubListener(reader = "from2", field = "Speed")
        void onPlant2(double speed) {
            fromPlant2.add(speed);
        }
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
