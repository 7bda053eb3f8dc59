package dev.opcua.spring.boot.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.spring.boot.autoconfigure.console.OpcUaConsoleAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.pubsub.OpcUaPubSubAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.pubsub.TestMqttBroker;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.spring.boot.pubsub.OpcUaPubSubLifecycle;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.test.web.servlet.assertj.MockMvcTester;

/**
 * The console's PubSub card with Spring MVC: {@code /opcua-console/api/pubsub} against a real PubSub service that
 * publishes a data set of the server's address space to a real broker (Moquette in this JVM) and reads it back;
 * 404 and no bean without PubSub, and a console that starts when {@code opcua-stack-pubsub} is not on the class
 * path.
 */
class OpcUaConsolePubSubTest {

    private static TestMqttBroker broker;
    private static int port;

    private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                    OpcUaPubSubAutoConfiguration.class, OpcUaConsoleAutoConfiguration.class))
            .withUserConfiguration(OpcUaConsoleMvcTest.Mvc.class)
            .withBean(InMemoryNodeManager.class, ConsoleTestPlant::plant)
            .withPropertyValues(ConsoleTestPlant.PROPERTIES);

    @BeforeAll
    static void startBroker() {
        broker = TestMqttBroker.start();
        port = broker.port();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private WebApplicationContextRunner publishing() {
        return contextRunner.withPropertyValues("opcua.pubsub.enabled=true", "opcua.pubsub.publisher-id=console-plant",
                "opcua.pubsub.mqtt.broker-url=tcp://127.0.0.1:" + port,
                "opcua.pubsub.data-sets.Line.fields.Speed.node-id=nsu=" + ConsoleTestPlant.NAMESPACE + ";s=Line.Speed",
                "opcua.pubsub.data-sets.Line.fields.Speed.type=Double",
                "opcua.pubsub.writer-groups.line.publishing-interval=50ms",
                "opcua.pubsub.writer-groups.line.writers.w.id=1",
                "opcua.pubsub.writer-groups.line.writers.w.data-set=Line",
                "opcua.pubsub.readers.back.publisher-id=console-plant",
                "opcua.pubsub.readers.back.writer-group=line",
                "opcua.pubsub.readers.back.data-set-writer-id=1");
    }

    @Test
    void the_pubsub_card_shows_the_connection_the_broker_state_and_what_was_sent_received_and_published() {
        publishing().run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(OpcUaConsolePubSubController.class);
            MockMvcTester mvc = MockMvcTester.from(context);
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                var s = context.getBean(OpcUaPubSubLifecycle.class).getService().statistics();
                return s.publishCount() > 0 && s.dataSetsReceived() > 0;
            });
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100)).untilAsserted(() ->
                    assertThat(mvc.get().uri("/opcua-console/api/pubsub")).hasStatusOk().bodyJson()
                            .extractingPath("$.lastPublish").isNotNull());

            var pubsub = assertThat(mvc.get().uri("/opcua-console/api/pubsub")).hasStatusOk().bodyJson();
            pubsub.extractingPath("$.running").isEqualTo(true);
            pubsub.extractingPath("$.brokerConnected").isEqualTo(true);
            pubsub.extractingPath("$.connections[0].name").isEqualTo("default");
            pubsub.extractingPath("$.connections[0].publisherId").isEqualTo("console-plant");
            pubsub.extractingPath("$.connections[0].connected").isEqualTo(true);
            pubsub.extractingPath("$.connections[0].writerGroups[0]").isEqualTo("line");
            pubsub.extractingPath("$.connections[0].readers[0]").isEqualTo("back");
            pubsub.extractingPath("$.messagesSent").asNumber().satisfies(n -> assertThat(n.longValue()).isPositive());
            pubsub.extractingPath("$.messagesReceived").asNumber().satisfies(n -> assertThat(n.longValue()).isPositive());
            pubsub.extractingPath("$.dataSetsReceived").asNumber().satisfies(n -> assertThat(n.longValue()).isPositive());
            pubsub.extractingPath("$.messagesDropped").isEqualTo(0);
            pubsub.extractingPath("$.droppedByReason.decode_error").isEqualTo(0);
            pubsub.extractingPath("$.publishCount").asNumber().satisfies(n -> assertThat(n.longValue()).isPositive());
            pubsub.extractingPath("$.publishMean").isNotNull();
            // and the page has the card
            assertThat(mvc.get().uri("/opcua-console/")).hasStatusOk().bodyText().contains("id=\"pubsub-card\"");
            assertThat(mvc.get().uri("/opcua-console/console.js")).hasStatusOk().bodyText().contains("api/pubsub");
        });
    }

    @Test
    void without_pubsub_the_card_has_no_json() {
        contextRunner.run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(ConsolePubSub.class)
                    .doesNotHaveBean(OpcUaConsolePubSubController.class);
            MockMvcTester mvc = MockMvcTester.from(context);
            assertThat(mvc.get().uri("/opcua-console/api/pubsub")).hasStatus(404);
            assertThat(mvc.get().uri("/opcua-console/api/overview")).hasStatusOk();
        });
    }

    @Test
    void the_console_starts_without_opcua_stack_pubsub_on_the_class_path() {
        publishing().withClassLoader(new FilteredClassLoader("dev.opcua.stack.pubsub."))
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(OpcUaConsoleController.class)
                            .doesNotHaveBean(ConsolePubSub.class).doesNotHaveBean(OpcUaConsolePubSubController.class);
                    MockMvcTester mvc = MockMvcTester.from(context);
                    assertThat(mvc.get().uri("/opcua-console/api/pubsub")).hasStatus(404);
                    assertThat(mvc.get().uri("/opcua-console/api/overview")).hasStatusOk();
                });
    }
}
