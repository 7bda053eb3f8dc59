package dev.opcua.stack.pubsub.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.BrowseDirection;
import dev.opcua.stack.core.types.enumerated.DataSetFieldContentMask;
import dev.opcua.stack.core.types.enumerated.PubSubState;
import dev.opcua.stack.core.types.structured.BrowseDescription;
import dev.opcua.stack.core.types.structured.BrowseResult;
import dev.opcua.stack.core.types.structured.ConfigurationVersionDataType;
import dev.opcua.stack.core.types.structured.DataSetMetaDataType;
import dev.opcua.stack.core.types.structured.FieldMetaData;
import dev.opcua.stack.core.types.structured.PublishedVariableDataType;
import dev.opcua.stack.core.types.structured.ReferenceDescription;
import dev.opcua.stack.pubsub.config.DataSetReaderConfig;
import dev.opcua.stack.pubsub.config.DataSetWriterConfig;
import dev.opcua.stack.pubsub.config.MessageEncoding;
import dev.opcua.stack.pubsub.config.PubSubConnectionConfig;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import dev.opcua.stack.pubsub.config.PublishedField;
import dev.opcua.stack.pubsub.config.WriterGroupConfig;
import dev.opcua.stack.pubsub.message.PublisherId;
import dev.opcua.stack.pubsub.runtime.PubSubService;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.roles.WellKnownRole;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The PubSub configuration in a real server's information model (Part 14, 9.1), seen by a real client: browsed
 * from PublishSubscribe down to writers and readers, read, and switched with the Status objects' Enable and
 * Disable Methods, which reach the {@link PubSubService}.
 */
class PubSubInformationModelTest {

    private static final long WAIT = 10;
    private static final NodeId SPEED = NodeId.ns0(NodeIds.Server_ServerStatus_CurrentTime);
    private static final NodeId ENABLE = NodeId.ns0(NodeIds.PubSubStatusType_Enable);
    private static final NodeId DISABLE = NodeId.ns0(NodeIds.PubSubStatusType_Disable);
    /** Whether sessions get ConfigureAdmin; asked at ActivateSession. */
    private static final AtomicBoolean ADMIN = new AtomicBoolean(true);

    private static OpcUaServer server;
    private static TestPubSubServices.FakeTransport transport;
    private static PubSubService service;
    private static PubSubInformationModel model;
    private static OpcUaClient client;

    @BeforeAll
    static void start() throws Exception {
        server = OpcUaServer.builder()
                .applicationUri("urn:test:pubsub-model")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("127.0.0.1"))
                .roleMapper(identity -> ADMIN.get()
                        ? EnumSet.of(WellKnownRole.ANONYMOUS, WellKnownRole.CONFIGURE_ADMIN)
                        : EnumSet.of(WellKnownRole.ANONYMOUS))
                .build()
                .start();
        PublishedDataSet line = new PublishedDataSet("Line", List.of(PublishedField.of("Speed", SPEED,
                BuiltinType.DateTime), PublishedField.of("Count", BuiltinType.Int32)));
        WriterGroupConfig fast = new WriterGroupConfig("Fast", 7, Duration.ofMillis(100), null, MessageEncoding.JSON,
                null, null, null, List.of(new DataSetWriterConfig("LineWriter", 11, "Line", 5,
                        DataSetFieldContentMask.StatusCode | DataSetFieldContentMask.SourceTimestamp)));
        DataSetReaderConfig remote = new DataSetReaderConfig("Remote", PublisherId.ofString("plc-1"), "G", 3, 4,
                MessageEncoding.JSON, null, null, line.metaData(), List.of());
        transport = new TestPubSubServices.FakeTransport();
        service = TestPubSubServices.builder()
                .dataSet(line)
                .connection(new PubSubConnectionConfig("Broker1", PublisherId.ofUInt16(42), List.of(fast),
                        List.of(remote)), transport)
                .build();
        model = PubSubInformationModel.register(server, service, Map.of("Broker1", "mqtt://broker.test:1883"));
        client = OpcUaClient.create(OpcUaClientConfig.builder(server.endpointUrl())
                .requestTimeout(Duration.ofSeconds(WAIT)).build());
        client.connect().get(WAIT, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.close();
        }
        if (service != null) {
            service.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @AfterEach
    void enableEverything() {
        transport.connected = true;
        service.setEnabled("Fast", true);
        service.setEnabled("Remote", true);
    }

    @Test
    void a_client_browses_from_publish_subscribe_to_the_writer_and_reads_the_configuration() throws Exception {
        NodeId connection = child(NodeId.ns0(NodeIds.PublishSubscribe), "Broker1", NodeIds.HasPubSubConnection);
        NodeId group = child(connection, "Fast", NodeIds.HasWriterGroup);
        NodeId writer = child(group, "LineWriter", NodeIds.HasDataSetWriter);
        NodeId readers = child(connection, PubSubInformationModel.READER_GROUP, NodeIds.HasReaderGroup);
        NodeId reader = child(readers, "Remote", NodeIds.HasDataSetReader);
        assertThat(connection).isEqualTo(model.connection("Broker1"));
        assertThat(writer).isEqualTo(model.dataSetWriter("Broker1", "Fast", "LineWriter"));
        assertThat(typeOf(connection)).isEqualTo(NodeId.ns0(NodeIds.PubSubConnectionType));
        assertThat(typeOf(group)).isEqualTo(NodeId.ns0(NodeIds.WriterGroupType));
        assertThat(typeOf(writer)).isEqualTo(NodeId.ns0(NodeIds.DataSetWriterType));
        assertThat(typeOf(reader)).isEqualTo(NodeId.ns0(NodeIds.DataSetReaderType));

        Variant publisherId = value(connection, "PublisherId");
        assertThat(publisherId.type()).isEqualTo(BuiltinType.UInt16);
        assertThat(publisherId.value()).isEqualTo(42);
        assertThat(value(connection, "TransportProfileUri").value()).isEqualTo(PubSubInformationModel.MQTT_JSON);
        NodeId address = child(connection, "Address", NodeIds.HasComponent);
        assertThat(typeOf(address)).isEqualTo(NodeId.ns0(NodeIds.NetworkAddressUrlType));
        assertThat(value(address, "Url").value()).isEqualTo("mqtt://broker.test:1883");

        assertThat(value(group, "WriterGroupId").value()).isEqualTo(7);
        assertThat(value(group, "PublishingInterval").value()).isEqualTo(100.0);
        assertThat(value(group, "KeepAliveTime").value()).isEqualTo(500.0);
        assertThat(value(writer, "DataSetWriterId").value()).isEqualTo(11);
        assertThat(value(writer, "DataSetFieldContentMask").value()).isEqualTo(3L);
        assertThat(value(writer, "KeyFrameCount").value()).isEqualTo(5L);

        assertThat(value(reader, "PublisherId").value()).isEqualTo("plc-1");
        assertThat(value(reader, "WriterGroupId").value()).isEqualTo(3);
        assertThat(value(reader, "DataSetWriterId").value()).isEqualTo(4);
        assertThat(fieldNames(value(reader, "DataSetMetaData"))).containsExactly("Speed", "Count");

        assertThat(state(NodeId.ns0(NodeIds.PublishSubscribe))).isEqualTo(PubSubState.Operational);
        assertThat(state(connection)).isEqualTo(PubSubState.Operational);
        assertThat(state(group)).isEqualTo(PubSubState.Operational);
        assertThat(state(writer)).isEqualTo(PubSubState.Operational);
        assertThat(state(reader)).isEqualTo(PubSubState.Operational);
        assertThat((String[]) client.readValue(NodeId.ns0(NodeIds.PublishSubscribe_SupportedTransportProfiles))
                .get(WAIT, TimeUnit.SECONDS).value().value())
                .containsExactly(PubSubInformationModel.MQTT_JSON, PubSubInformationModel.MQTT_UADP);
    }

    @Test
    void disable_and_enable_a_writer_group_through_its_status() throws Exception {
        NodeId group = model.writerGroup("Broker1", "Fast");
        NodeId status = child(group, "Status", NodeIds.HasComponent);
        assertThat(browseNames(status)).contains("State", "Enable", "Disable");

        client.call(status, DISABLE).get(WAIT, TimeUnit.SECONDS);

        assertThat(service.isEnabled("Fast")).isFalse();
        assertThat(state(group)).isEqualTo(PubSubState.Disabled);
        assertThat(state(model.dataSetWriter("Broker1", "Fast", "LineWriter"))).isEqualTo(PubSubState.Paused);
        assertThat(callStatus(status, DISABLE)).isEqualTo(StatusCodes.BadInvalidState);

        client.call(status, ENABLE).get(WAIT, TimeUnit.SECONDS);

        assertThat(service.isEnabled("Fast")).isTrue();
        assertThat(state(group)).isEqualTo(PubSubState.Operational);
        assertThat(state(model.dataSetWriter("Broker1", "Fast", "LineWriter"))).isEqualTo(PubSubState.Operational);
        assertThat(callStatus(status, ENABLE)).isEqualTo(StatusCodes.BadInvalidState);
    }

    @Test
    void disable_and_enable_a_reader_through_its_status() throws Exception {
        NodeId reader = model.dataSetReader("Broker1", "Remote");
        NodeId status = child(reader, "Status", NodeIds.HasComponent);

        client.call(status, DISABLE).get(WAIT, TimeUnit.SECONDS);
        assertThat(service.isEnabled("Remote")).isFalse();
        assertThat(state(reader)).isEqualTo(PubSubState.Disabled);
        assertThat(service.isEnabled("Fast")).as("the writer group of the same connection").isTrue();

        client.call(status, ENABLE).get(WAIT, TimeUnit.SECONDS);
        assertThat(service.isEnabled("Remote")).isTrue();
        assertThat(state(reader)).isEqualTo(PubSubState.Operational);
    }

    @Test
    void objects_the_service_cannot_switch_offer_no_enable_or_disable() throws Exception {
        NodeId writerStatus = child(model.dataSetWriter("Broker1", "Fast", "LineWriter"), "Status",
                NodeIds.HasComponent);
        NodeId connectionStatus = child(model.connection("Broker1"), "Status", NodeIds.HasComponent);

        assertThat(browseNames(writerStatus)).containsExactly("State");
        assertThat(browseNames(connectionStatus)).containsExactly("State");
        assertThat(callStatus(writerStatus, DISABLE)).isEqualTo(StatusCodes.BadMethodInvalid);
        assertThat(service.isEnabled("Fast")).isTrue();
    }

    @Test
    void a_transport_that_is_down_puts_the_connection_and_its_parts_in_error() throws Exception {
        transport.connected = false;

        assertThat(state(model.connection("Broker1"))).isEqualTo(PubSubState.Error);
        assertThat(state(model.writerGroup("Broker1", "Fast"))).isEqualTo(PubSubState.Error);
        assertThat(state(model.dataSetWriter("Broker1", "Fast", "LineWriter"))).isEqualTo(PubSubState.Error);
        assertThat(state(model.readerGroup("Broker1"))).isEqualTo(PubSubState.Error);
        assertThat(state(model.dataSetReader("Broker1", "Remote"))).isEqualTo(PubSubState.Error);
        assertThat(state(NodeId.ns0(NodeIds.PublishSubscribe))).isEqualTo(PubSubState.Operational);

        service.setEnabled("Fast", false);
        assertThat(state(model.writerGroup("Broker1", "Fast"))).as("disabled beats down")
                .isEqualTo(PubSubState.Disabled);
    }

    @Test
    void the_published_data_set_shows_its_metadata_fields_and_writers() throws Exception {
        NodeId dataSet = child(NodeId.ns0(NodeIds.PublishSubscribe_PublishedDataSets), "Line", NodeIds.HasComponent);
        assertThat(dataSet).isEqualTo(model.publishedDataSet("Line"));
        assertThat(typeOf(dataSet)).isEqualTo(NodeId.ns0(NodeIds.PublishedDataItemsType));

        assertThat(fieldNames(value(dataSet, "DataSetMetaData"))).containsExactly("Speed", "Count");
        ConfigurationVersionDataType version = ((ExtensionObject) value(dataSet, "ConfigurationVersion").value())
                .decoded(ConfigurationVersionDataType.class);
        assertThat(version).isEqualTo(service.dataSets().get("Line").version());
        ExtensionObject[] published = (ExtensionObject[]) value(dataSet, "PublishedData").value();
        assertThat(Arrays.stream(published).map(e -> e.decoded(PublishedVariableDataType.class).publishedVariable()))
                .containsExactly(SPEED, NodeId.NULL);
        assertThat(targets(dataSet, NodeIds.DataSetToWriter))
                .containsExactly(model.dataSetWriter("Broker1", "Fast", "LineWriter"));
    }

    @Test
    void a_session_without_configure_admin_may_not_switch() throws Exception {
        ADMIN.set(false);
        try (OpcUaClient user = OpcUaClient.create(OpcUaClientConfig.builder(server.endpointUrl())
                .requestTimeout(Duration.ofSeconds(WAIT)).build())) {
            user.connect().get(WAIT, TimeUnit.SECONDS);
            NodeId group = model.writerGroup("Broker1", "Fast");
            NodeId status = NodeId.string(group.namespaceIndex(), group.stringId() + ".Status");

            assertThatThrownBy(() -> user.call(status, DISABLE).get(WAIT, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(UaException.class)
                    .satisfies(e -> assertThat(((UaException) e.getCause()).statusCode().value())
                            .isEqualTo(StatusCodes.BadUserAccessDenied));
            assertThat(service.isEnabled("Fast")).isTrue();
        } finally {
            ADMIN.set(true);
        }
    }

    @Test
    void a_second_model_on_the_same_server_is_refused() {
        assertThatThrownBy(() -> PubSubInformationModel.register(server, service))
                .isInstanceOf(IllegalArgumentException.class);
    }

    // ---- helpers ----------------------------------------------------------------------------------

    /** The target of the parent's forward reference of the type with the BrowseName. */
    private static NodeId child(NodeId parent, String browseName, int referenceType) throws Exception {
        for (ReferenceDescription reference : references(parent, NodeIds.HierarchicalReferences)) {
            if (reference.browseName().name().equals(browseName)) {
                assertThat(reference.referenceTypeId()).as("reference to " + browseName)
                        .isEqualTo(NodeId.ns0(referenceType));
                return reference.nodeId().nodeId();
            }
        }
        throw new AssertionError(parent + " has no child " + browseName);
    }

    private static List<ReferenceDescription> references(NodeId node, int referenceType) throws Exception {
        BrowseResult result = client.browse(new BrowseDescription(node, BrowseDirection.Forward,
                NodeId.ns0(referenceType), true, 0, 0x3F)).get(WAIT, TimeUnit.SECONDS);
        assertThat(result.statusCode().isGood()).as("browse of " + node).isTrue();
        return result.references() == null ? List.of() : Arrays.asList(result.references());
    }

    private static List<NodeId> targets(NodeId node, int referenceType) throws Exception {
        return references(node, referenceType).stream().map(r -> r.nodeId().nodeId()).toList();
    }

    private static List<String> browseNames(NodeId node) throws Exception {
        return references(node, NodeIds.HierarchicalReferences).stream().map(r -> r.browseName().name()).toList();
    }

    private static NodeId typeOf(NodeId node) throws Exception {
        return targets(node, NodeIds.HasTypeDefinition).get(0);
    }

    private static Variant value(NodeId parent, String browseName) throws Exception {
        NodeId variable = null;
        for (ReferenceDescription reference : references(parent, NodeIds.HierarchicalReferences)) {
            if (reference.browseName().name().equals(browseName)) {
                variable = reference.nodeId().nodeId();
            }
        }
        assertThat(variable).as(parent + "/" + browseName).isNotNull();
        var read = client.readValue(variable).get(WAIT, TimeUnit.SECONDS);
        assertThat(read.statusCode().isGood()).as("read of " + variable).isTrue();
        return read.value();
    }

    private static PubSubState state(NodeId object) throws Exception {
        NodeId status = object.equals(NodeId.ns0(NodeIds.PublishSubscribe))
                ? NodeId.ns0(NodeIds.PublishSubscribe_Status) : child(object, "Status", NodeIds.HasComponent);
        return PubSubState.fromValue((Integer) value(status, "State").value());
    }

    private static List<String> fieldNames(Variant metaData) {
        DataSetMetaDataType decoded = ((ExtensionObject) metaData.value()).decoded(DataSetMetaDataType.class);
        return Arrays.stream(decoded.fields()).map(FieldMetaData::name).toList();
    }

    /** The status of a call that fails, or Good. */
    private static int callStatus(NodeId object, NodeId method) throws Exception {
        try {
            client.call(object, method).get(WAIT, TimeUnit.SECONDS);
            return StatusCodes.Good;
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(UaException.class);
            return ((UaException) e.getCause()).statusCode().value();
        }
    }
}
