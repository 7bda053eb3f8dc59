package dev.opcua.spring.boot.autoconfigure.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.server.annotation.OpcUaAnnotationAutoConfiguration;
import dev.opcua.spring.boot.pubsub.OpcUaPubSubLifecycle;
import dev.opcua.spring.boot.pubsub.OpcUaPubSubListener;
import dev.opcua.spring.boot.server.annotation.OpcUaNamespace;
import dev.opcua.spring.boot.server.annotation.UaVariable;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import dev.opcua.stack.pubsub.config.PublishedField;
import dev.opcua.stack.pubsub.runtime.ReceivedDataSet;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.OperationContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * PubSub on the application's OPC UA server, through a real broker (Moquette in this JVM): variables annotated
 * {@code @UaVariable(published = ...)} join their data sets, and the server shows the PubSub configuration below
 * its PublishSubscribe object.
 */
@ExtendWith(OutputCaptureExtension.class)
class OpcUaPubSubServerTest {

    private static final String NS = "urn:test:pubsub:filler";

    @TempDir
    static Path pkiDir;

    private static TestMqttBroker broker;
    private static int port;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                    OpcUaAnnotationAutoConfiguration.class, OpcUaPubSubAutoConfiguration.class))
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
                    "opcua.server.security.policies=None", "opcua.server.security.pki-dir=" + pkiDir,
                    "opcua.pubsub.enabled=true", "opcua.pubsub.publisher-id=filler-1");

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
    void annotated_variables_join_their_data_sets_after_the_configured_fields(CapturedOutput output) {
        runner.withUserConfiguration(FillerConfiguration.class)
                .withPropertyValues("opcua.pubsub.mqtt.broker-url=tcp://127.0.0.1:" + port,
                        "opcua.pubsub.data-sets.Line.fields.Time.node-id=i=2258",
                        "opcua.pubsub.writer-groups.line.publishing-interval=50ms",
                        "opcua.pubsub.writer-groups.line.writers.w.data-set=Line",
                        "opcua.pubsub.writer-groups.counts.publishing-interval=50ms",
                        "opcua.pubsub.writer-groups.counts.writers.c.data-set=Counts",
                        "opcua.pubsub.readers.back.publisher-id=filler-1",
                        "opcua.pubsub.readers.back.writer-group=line",
                        "opcua.pubsub.readers.back.data-set-writer-id=1")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    OpcUaServer server = context.getBean(OpcUaServer.class);
                    int ns = server.namespaces().indexOf(NS);
                    var dataSets = context.getBean(OpcUaPubSubLifecycle.class).getService().dataSets();
                    PublishedDataSet line = dataSets.get("Line");
                    assertThat(line.fields()).extracting(PublishedField::name)
                            .containsExactly("Time", "Speed", "Count");
                    assertThat(line.fields().get(1).source()).isEqualTo(NodeId.string(ns, "Filler.Speed"));
                    assertThat(line.fields().get(1).builtInType()).isEqualTo(BuiltinType.Double);
                    assertThat(line.fields().get(2).source()).isEqualTo(NodeId.string(ns, "Filler.Bottles"));
                    assertThat(line.fields().get(2).builtInType()).isEqualTo(BuiltinType.UInt32);
                    // made by the annotations alone
                    assertThat(dataSets.get("Counts").fields()).extracting(PublishedField::name)
                            .containsExactly("Rejects");
                    assertThat(dataSets).containsKey("Spare");
                    FillerConfiguration received = context.getBean(FillerConfiguration.class);
                    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                        assertThat(received.dataSets).isNotEmpty();
                        ReceivedDataSet last = received.dataSets.get(received.dataSets.size() - 1);
                        assertThat(last.fields()).containsKeys("Time", "Speed", "Count");
                        assertThat(last.fields().get("Speed").value().value()).isEqualTo(42.5);
                    });
                    assertThat(output.getOut()).containsOnlyOnce("the data set Spare of @UaVariable(published");
                });
    }

    @Test
    void a_configured_field_of_an_annotated_name_stops_the_start() {
        runner.withUserConfiguration(FillerConfiguration.class)
                .withPropertyValues("opcua.pubsub.mqtt.broker-url=tcp://127.0.0.1:" + port,
                        "opcua.pubsub.data-sets.Line.fields.Speed.node-id=i=2258",
                        "opcua.pubsub.writer-groups.line.writers.w.data-set=Line")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause()
                            .hasMessageContaining("opcua.pubsub.data-sets.Line.fields.Speed")
                            .hasMessageContaining("is annotated @UaVariable(published = \"Line\")");
                });
    }

    @Test
    void the_server_shows_the_pubsub_configuration_of_every_connection() {
        runner.withPropertyValues("opcua.pubsub.mqtt.broker-url=tcp://127.0.0.1:" + port,
                        "opcua.pubsub.data-sets.Line.fields.Time.node-id=i=2258",
                        "opcua.pubsub.writer-groups.line.writers.w.data-set=Line",
                        "opcua.pubsub.connections.plant2.mqtt.broker-url=mqtt://127.0.0.1:" + port,
                        "opcua.pubsub.connections.plant2.readers.r.publisher-id=7",
                        "opcua.pubsub.connections.plant2.readers.r.writer-group=g",
                        "opcua.pubsub.connections.plant2.readers.r.data-set-writer-id=1")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    OpcUaServer server = context.getBean(OpcUaServer.class);
                    int ns = server.namespaces().indexOf(server.config().applicationUri() + ":pubsub");
                    assertThat(ns).isPositive();
                    assertThat(browseName(server, NodeId.string(ns, "Connection:default"))).isEqualTo("default");
                    assertThat(browseName(server, NodeId.string(ns, "Connection:plant2"))).isEqualTo("plant2");
                    assertThat(browseName(server, NodeId.string(ns, "WriterGroup:default/line"))).isEqualTo("line");
                    assertThat(browseName(server, NodeId.string(ns, "DataSetReader:plant2/r"))).isEqualTo("r");
                    assertThat(browseName(server, NodeId.string(ns, "PublishedDataSet:Line"))).isEqualTo("Line");
                });
    }

    @Test
    void the_information_model_can_be_left_out() {
        runner.withPropertyValues("opcua.pubsub.mqtt.broker-url=tcp://127.0.0.1:" + port,
                        "opcua.pubsub.information-model=false",
                        "opcua.pubsub.data-sets.Line.fields.Time.node-id=i=2258",
                        "opcua.pubsub.writer-groups.line.writers.w.data-set=Line")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    OpcUaServer server = context.getBean(OpcUaServer.class);
                    assertThat(server.namespaces().indexOf(server.config().applicationUri() + ":pubsub"))
                            .isNegative();
                });
    }

    private static String browseName(OpcUaServer server, NodeId nodeId) throws Exception {
        DataValue[] values = server.nodeManagers().read(OperationContext.INTERNAL,
                new ReadValueId[] {new ReadValueId(nodeId, AttributeIds.BrowseName, null, QualifiedName.NULL)}, 0,
                TimestampsToReturn.Neither).get(5, TimeUnit.SECONDS);
        assertThat(values[0].statusCode().isGood()).as("BrowseName of %s: %s", nodeId, values[0].statusCode())
                .isTrue();
        return ((QualifiedName) values[0].value().value()).name();
    }

    @OpcUaNamespace(value = NS, name = "Filler")
    static class Filler {
        @UaVariable(published = "Line")
        volatile double speed = 42.5;

        @UaVariable(dataType = BuiltinType.UInt32, published = "Line", publishedField = "Count")
        volatile long bottles = 7;

        @UaVariable(published = "Counts")
        volatile int rejects = 1;

        @UaVariable(published = "Spare")
        volatile boolean spare;

        @UaVariable
        volatile String state = "RUNNING";
    }

    @Configuration(proxyBeanMethods = false)
    static class FillerConfiguration {
        final List<ReceivedDataSet> dataSets = new CopyOnWriteArrayList<>();

        @Bean
        Filler filler() {
            return new Filler();
        }

        @OpcUaPubSubListener(reader = "back")
        void onLine(ReceivedDataSet dataSet) {
            dataSets.add(dataSet);
        }
    }
}
