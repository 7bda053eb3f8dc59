package dev.opcua.stack.client.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.session.ClientIdentity;
import dev.opcua.stack.client.session.ClientSession;
import dev.opcua.stack.client.session.SessionOptions;
import dev.opcua.stack.client.session.TestCertificates;
import dev.opcua.stack.client.testing.MiloPeerServer.OperationLimits;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.client.transport.uasc.ClientChannelSecurity;
import dev.opcua.stack.core.types.UaRequestMessage;
import dev.opcua.stack.core.types.UaResponseMessage;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.BrowseDirection;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.BrowseDescription;
import dev.opcua.stack.core.types.structured.BrowseNextRequest;
import dev.opcua.stack.core.types.structured.BrowseNextResponse;
import dev.opcua.stack.core.types.structured.BrowsePath;
import dev.opcua.stack.core.types.structured.BrowseRequest;
import dev.opcua.stack.core.types.structured.BrowseResponse;
import dev.opcua.stack.core.types.structured.BrowseResult;
import dev.opcua.stack.core.types.structured.CallMethodRequest;
import dev.opcua.stack.core.types.structured.CallRequest;
import dev.opcua.stack.core.types.structured.CallResponse;
import dev.opcua.stack.core.types.structured.ContentFilter;
import dev.opcua.stack.core.types.structured.ContentFilterElement;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsRequest;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsResponse;
import dev.opcua.stack.core.types.structured.CreateSubscriptionRequest;
import dev.opcua.stack.core.types.structured.CreateSubscriptionResponse;
import dev.opcua.stack.core.types.structured.DataChangeNotification;
import dev.opcua.stack.core.types.structured.EventFieldList;
import dev.opcua.stack.core.types.structured.EventFilter;
import dev.opcua.stack.core.types.structured.EventNotificationList;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateRequest;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import dev.opcua.stack.core.types.structured.MonitoringParameters;
import dev.opcua.stack.core.types.structured.PublishRequest;
import dev.opcua.stack.core.types.structured.PublishResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.ReferenceDescription;
import dev.opcua.stack.core.types.structured.RegisterNodesRequest;
import dev.opcua.stack.core.types.structured.RegisterNodesResponse;
import dev.opcua.stack.core.types.structured.RelativePath;
import dev.opcua.stack.core.types.structured.RelativePathElement;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.SimpleAttributeOperand;
import dev.opcua.stack.core.types.structured.SubscriptionAcknowledgement;
import dev.opcua.stack.core.types.structured.TranslateBrowsePathsToNodeIdsRequest;
import dev.opcua.stack.core.types.structured.TranslateBrowsePathsToNodeIdsResponse;
import dev.opcua.stack.core.types.structured.ViewDescription;
import dev.opcua.stack.core.types.structured.WriteRequest;
import dev.opcua.stack.core.types.structured.WriteResponse;
import dev.opcua.stack.core.types.structured.WriteValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link MiloPeerServer} as our client sees it, through {@link ClientSession} on a None channel:
 * its namespace, values set from the test, Browse with BrowseNext, the Add method, events from the
 * Server object, the OperationLimits it advertises and enforces, and a restart on the same port.
 */
class MiloPeerServerIT {

    private static final TransportQuotas QUOTAS = TransportQuotas.builder()
            .operationTimeout(Duration.ofSeconds(10)).build();
    private static final OperationLimits LIMITS = new OperationLimits(8, 7, 6, 5, 4, 3, 9);
    private static final int NS = MiloPeerServer.NAMESPACE_INDEX;
    private static final ViewDescription NO_VIEW = new ViewDescription(NodeId.NULL, DateTime.MIN_VALUE, 0);

    private static MiloPeerServer milo;
    private static ClientResources resources;

    @BeforeAll
    static void startMilo() throws Exception {
        milo = MiloPeerServer.builder().operationLimits(LIMITS).start();
        resources = ClientResources.builder().ioThreads(1).build();
    }

    @AfterAll
    static void stopMilo() {
        try {
            if (milo != null) {
                milo.close();
            }
        } finally {
            if (resources != null) {
                resources.close();
            }
        }
    }

    @Test
    void the_test_namespace_is_at_index_two_of_the_namespace_array() throws Exception {
        withSession(milo, session -> {
            Object namespaces = readValue(session, NodeId.ns0(NodeIds.Server_NamespaceArray));

            assertThat((String[]) namespaces).hasSizeGreaterThan(NS);
            assertThat(((String[]) namespaces)[NS]).isEqualTo(MiloPeerServer.NAMESPACE_URI);
            assertThat(milo.namespaceIndex()).isEqualTo(NS);
        });
    }

    @Test
    void every_variable_has_its_documented_data_type() throws Exception {
        withSession(milo, session -> {
            DataValue[] types = session.read(Stream.of(MiloPeerServer.DOUBLE, MiloPeerServer.INT32,
                    MiloPeerServer.STRING, MiloPeerServer.BOOLEAN, MiloPeerServer.DOUBLE_ARRAY, MiloPeerServer.BYTE,
                    MiloPeerServer.READ_ONLY, MiloPeerServer.manyChild(0))
                    .map(id -> new ReadValueId(node(id), AttributeIds.DataType, null, QualifiedName.NULL))
                    .toArray(ReadValueId[]::new)).get(10, TimeUnit.SECONDS);

            assertThat(Arrays.stream(types).map(v -> v.value().value())).containsExactly(NodeId.ns0(NodeIds.Double),
                    NodeId.ns0(NodeIds.Int32), NodeId.ns0(NodeIds.String), NodeId.ns0(NodeIds.Boolean),
                    NodeId.ns0(NodeIds.Double), NodeId.ns0(NodeIds.Byte), NodeId.ns0(NodeIds.Int32),
                    NodeId.ns0(NodeIds.Int32));
        });
    }

    static Stream<Arguments> valuesOfEveryType() {
        return Stream.of(Arguments.of(MiloPeerServer.DOUBLE, 2.5d), Arguments.of(MiloPeerServer.INT32, -7),
                Arguments.of(MiloPeerServer.STRING, "hello"), Arguments.of(MiloPeerServer.BOOLEAN, true),
                Arguments.of(MiloPeerServer.DOUBLE_ARRAY, new double[] {4.0, 5.5}),
                Arguments.of(MiloPeerServer.BYTE, (short) 200), Arguments.of(MiloPeerServer.manyChild(3), 33));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valuesOfEveryType")
    void set_value_changes_what_a_client_reads(String id, Object value) throws Exception {
        milo.setValue(id, value);

        withSession(milo, session -> assertThat(readValue(session, node(id))).isEqualTo(value));
        assertThat(milo.value(id)).isEqualTo(value);
    }

    @Test
    void set_value_refuses_a_java_type_other_than_the_variables() {
        assertThatThrownBy(() -> milo.setValue(MiloPeerServer.DOUBLE, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Double");
        assertThatThrownBy(() -> milo.setValue(MiloPeerServer.BYTE, 256)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0..255");
        assertThatThrownBy(() -> milo.setValue("NoSuch", 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("s=NoSuch");
    }

    @Test
    void a_client_write_is_seen_by_value_and_the_read_only_and_byte_variables_refuse_it() throws Exception {
        withSession(milo, session -> {
            WriteResponse response = send(session, header -> new WriteRequest(header, new WriteValue[] {
                new WriteValue(node(MiloPeerServer.INT32), AttributeIds.Value, null, DataValue.of(Variant.ofInt32(99))),
                new WriteValue(node(MiloPeerServer.READ_ONLY), AttributeIds.Value, null,
                        DataValue.of(Variant.ofInt32(1))),
                new WriteValue(node(MiloPeerServer.BYTE), AttributeIds.Value, null, DataValue.of(Variant.ofInt32(1)))
            }), WriteResponse.class);

            // Milo checks UserAccessLevel before AccessLevel, so a variable read-only for all answers
            // BadUserAccessDenied, not BadNotWritable.
            assertThat(response.results()).extracting(StatusCode::value).containsExactly(StatusCodes.Good,
                    StatusCodes.BadUserAccessDenied, StatusCodes.BadTypeMismatch);
            assertThat(milo.value(MiloPeerServer.INT32)).isEqualTo(99);
            assertThat(milo.value(MiloPeerServer.READ_ONLY)).isEqualTo(MiloPeerServer.READ_ONLY_VALUE);
        });
    }

    @Test
    void a_browse_of_many_returns_a_hundred_references_and_browse_next_the_rest() throws Exception {
        withSession(milo, session -> {
            BrowseResponse first = send(session, header -> new BrowseRequest(header, NO_VIEW, 0,
                    new BrowseDescription[] {new BrowseDescription(node(MiloPeerServer.MANY), BrowseDirection.Forward,
                            NodeId.ns0(NodeIds.Organizes), false, 0, 0x3F)}), BrowseResponse.class);
            BrowseResult result = first.results()[0];
            assertThat(result.references()).hasSize(MiloPeerServer.DEFAULT_MAX_REFERENCES_PER_BROWSE);

            List<ReferenceDescription> references = new ArrayList<>(List.of(result.references()));
            int calls = 1;
            ByteString continuationPoint = result.continuationPoint();
            while (continuationPoint != null && !continuationPoint.isNull()) {
                ByteString point = continuationPoint;
                BrowseNextResponse next = send(session, header -> new BrowseNextRequest(header, false,
                        new ByteString[] {point}), BrowseNextResponse.class);
                assertThat(next.results()[0].references()).hasSizeLessThanOrEqualTo(100);
                references.addAll(List.of(next.results()[0].references()));
                continuationPoint = next.results()[0].continuationPoint();
                calls++;
            }

            Set<String> ids = new HashSet<>();
            references.forEach(r -> ids.add(r.nodeId().nodeId().stringId()));
            assertThat(ids).hasSize(MiloPeerServer.DEFAULT_MANY_VARIABLES)
                    .contains(MiloPeerServer.manyChild(0), MiloPeerServer.manyChild(1_499));
            assertThat(calls).isEqualTo(15);
        });
    }

    @Test
    void add_returns_the_sum_of_its_arguments() throws Exception {
        withSession(milo, session -> {
            CallResponse response = send(session, header -> new CallRequest(header, new CallMethodRequest[] {
                new CallMethodRequest(node(MiloPeerServer.METHODS), node(MiloPeerServer.ADD),
                        new Variant[] {Variant.ofInt32(40), Variant.ofInt32(2)})
            }), CallResponse.class);

            assertThat(response.results()[0].statusCode().isGood()).as("%s", response.results()[0].statusCode())
                    .isTrue();
            assertThat(response.results()[0].outputArguments()).extracting(Variant::value).containsExactly(42);
        });
    }

    @Test
    void the_operation_limits_are_advertised_under_server_capabilities() throws Exception {
        withSession(milo, session -> {
            DataValue[] values = session.read(IntStream.of(
                    NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerRead,
                    NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerWrite,
                    NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerBrowse,
                    NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerMethodCall,
                    NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerTranslateBrowsePathsToNodeIds,
                    NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerRegisterNodes,
                    NodeIds.Server_ServerCapabilities_OperationLimits_MaxMonitoredItemsPerCall)
                    .mapToObj(id -> new ReadValueId(NodeId.ns0(id), AttributeIds.Value, null, QualifiedName.NULL))
                    .toArray(ReadValueId[]::new)).get(10, TimeUnit.SECONDS);

            assertThat(Arrays.stream(values).map(v -> v.value().value())).containsExactly(8L, 7L, 6L, 5L, 4L, 3L, 9L);
        });
    }

    @Test
    void a_read_over_max_nodes_per_read_is_refused_with_bad_too_many_operations() throws Exception {
        withSession(milo, session -> {
            ReadValueId state = new ReadValueId(node(MiloPeerServer.DOUBLE), AttributeIds.Value, null,
                    QualifiedName.NULL);

            assertThat(session.read(times(8, i -> state, ReadValueId[]::new)).get(10, TimeUnit.SECONDS)).hasSize(8);
            assertFailsWithTooManyOperations(() -> session.read(times(9, i -> state, ReadValueId[]::new))
                    .get(10, TimeUnit.SECONDS));
        });
    }

    @Test
    void every_other_service_over_its_limit_is_refused_with_bad_too_many_operations() throws Exception {
        withSession(milo, session -> {
            WriteValue write = new WriteValue(node(MiloPeerServer.INT32), AttributeIds.Value, null,
                    DataValue.of(Variant.ofInt32(1)));
            BrowseDescription browse = new BrowseDescription(node(MiloPeerServer.METHODS), BrowseDirection.Forward,
                    NodeId.NULL, true, 0, 0x3F);
            CallMethodRequest call = new CallMethodRequest(node(MiloPeerServer.METHODS), node(MiloPeerServer.ADD),
                    new Variant[] {Variant.ofInt32(1), Variant.ofInt32(2)});
            BrowsePath path = new BrowsePath(NodeId.ns0(NodeIds.ObjectsFolder), new RelativePath(
                    new RelativePathElement[] {new RelativePathElement(NodeId.ns0(NodeIds.Organizes), false, true,
                            QualifiedName.of(NS, MiloPeerServer.DOUBLE))}));
            long subscriptionId = createSubscription(session);
            MonitoredItemCreateRequest item = valueItem(node(MiloPeerServer.DOUBLE), 1);

            assertFailsWithTooManyOperations(() -> send(session, h -> new WriteRequest(h,
                    times(8, i -> write, WriteValue[]::new)), WriteResponse.class));
            assertFailsWithTooManyOperations(() -> send(session, h -> new BrowseRequest(h, NO_VIEW, 0,
                    times(7, i -> browse, BrowseDescription[]::new)), BrowseResponse.class));
            assertFailsWithTooManyOperations(() -> send(session, h -> new CallRequest(h,
                    times(6, i -> call, CallMethodRequest[]::new)), CallResponse.class));
            assertFailsWithTooManyOperations(() -> send(session, h -> new TranslateBrowsePathsToNodeIdsRequest(h,
                    times(5, i -> path, BrowsePath[]::new)), TranslateBrowsePathsToNodeIdsResponse.class));
            assertFailsWithTooManyOperations(() -> send(session, h -> new RegisterNodesRequest(h,
                    times(4, i -> node(MiloPeerServer.DOUBLE), NodeId[]::new)), RegisterNodesResponse.class));
            assertFailsWithTooManyOperations(() -> send(session, h -> new CreateMonitoredItemsRequest(h,
                    subscriptionId, TimestampsToReturn.Both, times(10, i -> item, MonitoredItemCreateRequest[]::new)),
                    CreateMonitoredItemsResponse.class));

            CreateMonitoredItemsResponse atTheLimit = send(session, h -> new CreateMonitoredItemsRequest(h,
                    subscriptionId, TimestampsToReturn.Both, times(9, i -> item, MonitoredItemCreateRequest[]::new)),
                    CreateMonitoredItemsResponse.class);
            assertThat(atTheLimit.results()).hasSize(9).allSatisfy(r -> assertThat(r.statusCode().isGood()).isTrue());
        });
    }

    @Test
    void a_data_change_monitored_item_reports_set_value() throws Exception {
        withSession(milo, session -> {
            milo.setValue(MiloPeerServer.manyChild(10), 1);
            long subscriptionId = createSubscription(session);
            send(session, h -> new CreateMonitoredItemsRequest(h, subscriptionId, TimestampsToReturn.Both,
                    new MonitoredItemCreateRequest[] {valueItem(node(MiloPeerServer.manyChild(10)), 77)}),
                    CreateMonitoredItemsResponse.class);
            assertThat(nextDataChange(session, 77).value().value().value()).isEqualTo(1);

            milo.setValue(MiloPeerServer.manyChild(10), 2);

            assertThat(nextDataChange(session, 77).value().value().value()).isEqualTo(2);
        });
    }

    @Test
    void an_event_monitored_item_on_the_server_object_receives_emit_event() throws Exception {
        withSession(milo, session -> {
            long subscriptionId = createSubscription(session);
            EventFilter filter = new EventFilter(new SimpleAttributeOperand[] {
                eventField("EventId"),
                eventField("SourceNode"),
                eventField("Severity"),
                eventField("Message")
            }, new ContentFilter(new ContentFilterElement[0]));
            CreateMonitoredItemsResponse created = send(session, h -> new CreateMonitoredItemsRequest(h,
                    subscriptionId, TimestampsToReturn.Both, new MonitoredItemCreateRequest[] {
                        new MonitoredItemCreateRequest(new ReadValueId(NodeId.ns0(NodeIds.Server),
                                AttributeIds.EventNotifier, null, QualifiedName.NULL), MonitoringMode.Reporting,
                                new MonitoringParameters(5, 0, ExtensionObject.of(filter), 10, true))
                    }), CreateMonitoredItemsResponse.class);
            assertThat(created.results()[0].statusCode().isGood()).as("%s", created.results()[0].statusCode())
                    .isTrue();

            byte[] eventId = milo.emitEvent(700, "boiler pressure high");

            EventFieldList event = nextEvent(session, 5);
            assertThat(((ByteString) event.eventFields()[0].value()).unsafeBytes()).isEqualTo(eventId);
            assertThat(event.eventFields()[1].value()).isEqualTo(NodeId.ns0(NodeIds.Server));
            assertThat(event.eventFields()[2].value()).isEqualTo(700);
            assertThat(((LocalizedText) event.eventFields()[3].value()).text()).isEqualTo("boiler pressure high");
        });
    }

    @Test
    void session_count_counts_the_sessions_milo_holds() throws Exception {
        int before = milo.sessionCount();

        withSession(milo, session -> assertThat(milo.sessionCount()).isEqualTo(before + 1));

        assertThat(milo.sessionCount()).isEqualTo(before);
    }

    @Test
    void stop_closes_every_connection_and_start_serves_the_same_port_with_no_session_and_the_last_values() throws Exception {
        try (MiloPeerServer restarted = MiloPeerServer.builder().manyVariables(0).start()) {
            String url = restarted.endpointUrl();
            UaTcpClientChannel channel = connect(restarted);
            try {
                ClientSession session = ClientSession.open(channel, ClientChannelSecurity.NONE, options())
                        .get(10, TimeUnit.SECONDS);
                restarted.setValue(MiloPeerServer.STRING, "before");
                assertThat(restarted.sessionCount()).isEqualTo(1);

                restarted.stop();

                assertThat(restarted.isRunning()).isFalse();
                assertThatThrownBy(() -> session.read(new ReadValueId(NodeId.ns0(NodeIds.Server_NamespaceArray),
                        AttributeIds.Value, null, QualifiedName.NULL)).get(10, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class);
                assertThat(channel.isOpen()).isFalse();
                restarted.setValue(MiloPeerServer.INT32, 5);
            } finally {
                channel.close().get(10, TimeUnit.SECONDS);
            }

            restarted.start();

            assertThat(restarted.endpointUrl()).isEqualTo(url);
            assertThat(restarted.sessionCount()).isZero();
            withSession(restarted, session -> {
                assertThat(readValue(session, node(MiloPeerServer.STRING))).isEqualTo("before");
                assertThat(readValue(session, node(MiloPeerServer.INT32))).isEqualTo(5);
            });
        }
    }

    // --- helpers

    private interface SessionCheck {
        void accept(ClientSession session) throws Exception;
    }

    private static void withSession(MiloPeerServer server, SessionCheck check) throws Exception {
        UaTcpClientChannel channel = connect(server);
        try {
            ClientSession session = ClientSession.open(channel, ClientChannelSecurity.NONE, options())
                    .get(10, TimeUnit.SECONDS);
            try {
                check.accept(session);
            } finally {
                session.close().get(10, TimeUnit.SECONDS);
            }
        } finally {
            channel.close().get(10, TimeUnit.SECONDS);
        }
    }

    private static UaTcpClientChannel connect(MiloPeerServer server) throws Exception {
        return UaTcpClientChannel.connect(server.endpointUrl(), QUOTAS, ClientChannelSecurity.NONE, resources)
                .get(10, TimeUnit.SECONDS);
    }

    private static SessionOptions options() {
        return SessionOptions.builder().applicationUri(TestCertificates.applicationUri("peer-client"))
                .applicationName("opcua-java fixture test").sessionName("fixture")
                .identity(ClientIdentity.anonymous()).build();
    }

    private static NodeId node(String id) {
        return NodeId.string(NS, id);
    }

    private static Object readValue(ClientSession session, NodeId node) throws Exception {
        DataValue value = session.read(new ReadValueId(node, AttributeIds.Value, null, QualifiedName.NULL))
                .get(10, TimeUnit.SECONDS)[0];
        assertThat(value.statusCode().isGood()).as("status of %s: %s", node, value.statusCode()).isTrue();
        return value.value().value();
    }

    private static <T extends UaResponseMessage> T send(ClientSession session,
            Function<RequestHeader, ? extends UaRequestMessage> build, Class<T> responseType) throws Exception {
        return session.request(build.apply(session.header()), responseType).get(10, TimeUnit.SECONDS);
    }

    private static <T> T[] times(int n, IntFunction<T> element, IntFunction<T[]> array) {
        return IntStream.range(0, n).mapToObj(element).toArray(array);
    }

    private interface Call {
        void run() throws Exception;
    }

    private static void assertFailsWithTooManyOperations(Call call) {
        assertThatThrownBy(call::run).isInstanceOf(ExecutionException.class).cause().isInstanceOf(UaException.class)
                .satisfies(e -> assertThat(((UaException) e).statusCode().value()).as("status of %s", e)
                        .isEqualTo(StatusCodes.BadTooManyOperations));
    }

    private static long createSubscription(ClientSession session) throws Exception {
        return send(session, h -> new CreateSubscriptionRequest(h, 50, 600, 20, 0, true, (short) 0),
                CreateSubscriptionResponse.class).subscriptionId();
    }

    private static MonitoredItemCreateRequest valueItem(NodeId node, long clientHandle) {
        return new MonitoredItemCreateRequest(new ReadValueId(node, AttributeIds.Value, null, QualifiedName.NULL),
                MonitoringMode.Reporting, new MonitoringParameters(clientHandle, 20, ExtensionObject.NULL, 10, true));
    }

    private static SimpleAttributeOperand eventField(String name) {
        return new SimpleAttributeOperand(NodeId.ns0(NodeIds.BaseEventType), new QualifiedName[] {
            QualifiedName.of(0, name)}, AttributeIds.Value, null);
    }

    /** Publishes until a notification of the item arrives (keep-alives skipped); at most 5 s. */
    private static MonitoredItemNotification nextDataChange(ClientSession session, long clientHandle) {
        return await("a data change of item " + clientHandle).atMost(Duration.ofSeconds(5))
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                .until(() -> dataChange(publish(session), clientHandle), Optional::isPresent).orElseThrow();
    }

    private static Optional<MonitoredItemNotification> dataChange(ExtensionObject[] data, long clientHandle) {
        return Arrays.stream(data).map(ExtensionObject::decoded)
                .flatMap(d -> d instanceof DataChangeNotification change ? Arrays.stream(change.monitoredItems())
                        : Stream.empty())
                .filter(item -> item.clientHandle() == clientHandle).findFirst();
    }

    /** Publishes until an event of the item arrives (keep-alives skipped); at most 5 s. */
    private static EventFieldList nextEvent(ClientSession session, long clientHandle) {
        return await("an event of item " + clientHandle).atMost(Duration.ofSeconds(5))
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                .until(() -> event(publish(session), clientHandle), Optional::isPresent).orElseThrow();
    }

    private static Optional<EventFieldList> event(ExtensionObject[] data, long clientHandle) {
        return Arrays.stream(data).map(ExtensionObject::decoded)
                .flatMap(d -> d instanceof EventNotificationList events ? Arrays.stream(events.events())
                        : Stream.empty())
                .filter(event -> event.clientHandle() == clientHandle).findFirst();
    }

    private static ExtensionObject[] publish(ClientSession session) throws Exception {
        PublishResponse response = send(session, h -> new PublishRequest(h, new SubscriptionAcknowledgement[0]),
                PublishResponse.class);
        ExtensionObject[] data = response.notificationMessage().notificationData();
        return data == null ? new ExtensionObject[0] : data;
    }
}
