package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.history.HistorySample;
import dev.opcua.stack.server.history.InMemoryHistoryStore;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.services.history.HistorySettings;
import dev.opcua.stack.server.testing.MiloClients;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.Identifiers;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryData;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadDetails;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadResult;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadAtTimeDetails;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadRawModifiedDetails;
import org.eclipse.milo.opcua.stack.core.types.structured.DeleteRawModifiedDetails;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryUpdateDetails;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryUpdateResult;
import org.eclipse.milo.opcua.stack.core.types.structured.UpdateDataDetails;
import org.eclipse.milo.opcua.stack.core.types.enumerated.PerformUpdateType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Eclipse Milo 1.1.2's client reads raw history from the assembled {@link OpcUaServer} (Part 4, 5.10.3;
 * Part 11, 6.5.3): paging with continuation points forward and backward, bounds, release, and the statuses
 * of bad input; and sees a written value recorded.
 */
class MiloHistoryInteropIT {

    private static final String NS = "urn:test:milo:history";
    /** A day ago, on a whole second: 100 values one second apart start here. */
    private static final Instant T0 = Instant.now().minus(Duration.ofDays(1)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);

    private static OpcUaServer server;
    private static OpcUaClient client;
    private static InMemoryHistoryStore store;
    private static NodeId speed;
    private static NodeId plain;
    private static NodeId pressure;

    @BeforeAll
    static void start() throws Exception {
        store = new InMemoryHistoryStore();
        InMemoryNodeManager nodes = InMemoryNodeManager.builder(NS)
                .folder("Line")
                .variable("Line.Speed", BuiltinType.Double, v -> v.value(
                        dev.opcua.stack.core.types.builtin.Variant.ofDouble(0)).writable().historyWritable())
                .variable("Line.Pressure", BuiltinType.Double, v -> v.value(
                        dev.opcua.stack.core.types.builtin.Variant.ofDouble(0)).historyWritable())
                .variable("Line.Plain", BuiltinType.Double, v -> v.value(
                        dev.opcua.stack.core.types.builtin.Variant.ofDouble(1)).writable())
                .build();
        // a variable whose history exists (AccessLevel HistoryRead) but not for this user (UserAccessLevel without it)
        dev.opcua.stack.server.addressspace.NodeStore secrets = new dev.opcua.stack.server.addressspace.NodeStore(1);
        NodeStoreNodeManager secretManager = new NodeStoreNodeManager(List.of(NS + ":secret"), secrets);
        server = OpcUaServer.builder()
                .applicationUri("urn:test:milo:history:server")
                .nodeManager(secretManager)
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .requests(2, 8, 100)
                .nodeManager(nodes)
                .history(store, new HistorySettings(3, 0, 0, 0, 2, 10_000))
                .build();
        int secretNs = server.namespaces().indexOf(NS + ":secret");
        secrets.add(new dev.opcua.stack.server.addressspace.VariableNode(
                dev.opcua.stack.core.types.builtin.NodeId.string(secretNs, "Recipe"),
                dev.opcua.stack.core.types.builtin.QualifiedName.of(secretNs, "Recipe"), null, null, 0, 0,
                dev.opcua.stack.core.types.builtin.DataValue.of(dev.opcua.stack.core.types.builtin.Variant.ofDouble(1)),
                dev.opcua.stack.server.addressspace.ValueAttributes.scalar(
                        dev.opcua.stack.core.types.builtin.NodeId.ns0(dev.opcua.stack.core.ids.NodeIds.Double)),
                (short) 0x05, (short) 0x01, 0, true, 0x05));
        server.start();
        dev.opcua.stack.core.types.builtin.NodeId speedId = nodes.nodeId("Line.Speed");
        List<HistorySample> samples = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            dev.opcua.stack.core.types.builtin.DateTime time = dev.opcua.stack.core.types.builtin.DateTime.ofInstant(
                    T0.plusSeconds(i));
            samples.add(new HistorySample(speedId, dev.opcua.stack.core.types.builtin.DataValue.of(
                    dev.opcua.stack.core.types.builtin.Variant.ofDouble(i),
                    dev.opcua.stack.core.types.builtin.StatusCode.GOOD, time, time)));
        }
        dev.opcua.stack.core.types.builtin.NodeId pressureId = nodes.nodeId("Line.Pressure");
        for (int i = 0; i < 10; i++) {
            dev.opcua.stack.core.types.builtin.DateTime time = dev.opcua.stack.core.types.builtin.DateTime.ofInstant(
                    T0.plusSeconds(i));
            samples.add(new HistorySample(pressureId, dev.opcua.stack.core.types.builtin.DataValue.of(
                    dev.opcua.stack.core.types.builtin.Variant.ofDouble(100 + i),
                    dev.opcua.stack.core.types.builtin.StatusCode.GOOD, time, time)));
        }
        store.append(samples).join();
        client = MiloClients.anonymousOverNone(server.endpointUrl());
        int ns = client.getNamespaceTable().getIndex(NS).intValue();
        speed = new NodeId(ns, "Line.Speed");
        plain = new NodeId(ns, "Line.Plain");
        pressure = new NodeId(ns, "Line.Pressure");
    }

    @AfterAll
    static void stop() throws Exception {
        MiloClients.disconnectAndClose(client, server, store);
    }

    private static DateTime at(double seconds) {
        return MiloClients.miloTime(T0, seconds);
    }

    private static HistoryReadResult read(HistoryReadDetails details, TimestampsToReturn timestamps, NodeId node,
            ByteString point) throws UaException {
        return client.historyRead(details, timestamps, false,
                List.of(new HistoryReadValueId(node, null, QualifiedName.NULL_VALUE, point))).getResults()[0];
    }

    private static List<DataValue> values(HistoryReadResult result) {
        HistoryData data = (HistoryData) result.getHistoryData().decode(client.getStaticEncodingContext());
        return data.getDataValues() == null ? List.of() : Arrays.asList(data.getDataValues());
    }

    private static List<Double> numbers(List<DataValue> values) {
        return values.stream().map(v -> (Double) v.getValue().getValue()).toList();
    }

    @Test
    void pages_forward_with_continuation_points_until_the_range_is_read() throws Exception {
        ReadRawModifiedDetails details = new ReadRawModifiedDetails(false, at(0), at(100), uint(30), false);
        List<Double> all = new ArrayList<>();
        List<Integer> pages = new ArrayList<>();
        HistoryReadResult result = read(details, TimestampsToReturn.Both, speed, null);
        while (true) {
            assertThat(result.getStatusCode().isGood()).isTrue();
            List<DataValue> page = values(result);
            pages.add(page.size());
            all.addAll(numbers(page));
            ByteString point = result.getContinuationPoint();
            if (point == null || point.isNull()) {
                break;
            }
            result = read(details, TimestampsToReturn.Both, speed, point);
        }
        assertThat(pages).containsExactly(30, 30, 30, 10);
        assertThat(all).hasSize(100);
        for (int i = 0; i < 100; i++) {
            assertThat(all.get(i)).isEqualTo((double) i);
        }
    }

    @Test
    void reads_backward_when_the_end_is_before_the_start() throws Exception {
        HistoryReadResult result = read(new ReadRawModifiedDetails(false, at(100), at(0), uint(0), false),
                TimestampsToReturn.Source, speed, null);
        List<DataValue> values = values(result);
        assertThat(numbers(values)).hasSize(99).startsWith(99.0, 98.0).endsWith(2.0, 1.0);
        assertThat(values.get(0).getSourceTime()).isEqualTo(at(99));
        DateTime server = values.get(0).getServerTime(); // not sent: Milo decodes an absent timestamp as MinValue
        assertThat(server == null || server.equals(DateTime.MIN_VALUE)).isTrue();
    }

    @Test
    void one_time_and_a_count_read_that_many_values_from_that_time() throws Exception {
        HistoryReadResult forward = read(new ReadRawModifiedDetails(false, at(10), DateTime.MIN_VALUE, uint(5), false),
                TimestampsToReturn.Both, speed, null);
        assertThat(numbers(values(forward))).containsExactly(10.0, 11.0, 12.0, 13.0, 14.0);
        assertThat(forward.getContinuationPoint() == null || forward.getContinuationPoint().isNull()).isTrue();
        HistoryReadResult backward = read(new ReadRawModifiedDetails(false, DateTime.MIN_VALUE, at(50), uint(3), false),
                TimestampsToReturn.Both, speed, null);
        assertThat(numbers(values(backward))).containsExactly(50.0, 49.0, 48.0);
    }

    @Test
    void equal_start_and_end_read_the_value_at_that_time() throws Exception {
        HistoryReadResult result = read(new ReadRawModifiedDetails(false, at(7), at(7), uint(0), false),
                TimestampsToReturn.Both, speed, null);
        assertThat(numbers(values(result))).containsExactly(7.0);
    }

    @Test
    void bounds_are_the_values_around_the_range_or_bad_bound_not_found() throws Exception {
        HistoryReadResult inside = read(new ReadRawModifiedDetails(false, at(10.5), at(20.5), uint(0), true),
                TimestampsToReturn.Both, speed, null);
        assertThat(numbers(values(inside))).containsExactly(10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0,
                19.0, 20.0, 21.0);

        HistoryReadResult before = read(new ReadRawModifiedDetails(false, at(-10), at(2.5), uint(0), true),
                TimestampsToReturn.Both, speed, null);
        List<DataValue> values = values(before);
        assertThat(values).hasSize(5);
        assertThat(values.get(0).getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_BoundNotFound);
        assertThat(values.get(0).getSourceTime()).isEqualTo(at(-10));
        assertThat(numbers(values.subList(1, 5))).containsExactly(0.0, 1.0, 2.0, 3.0);
    }

    @Test
    void a_released_continuation_point_is_invalid_afterwards() throws Exception {
        ReadRawModifiedDetails details = new ReadRawModifiedDetails(false, at(0), at(100), uint(10), false);
        ByteString point = read(details, TimestampsToReturn.Both, speed, null).getContinuationPoint();
        assertThat(point.isNotNull()).isTrue();
        HistoryReadResult released = client.historyRead(details, TimestampsToReturn.Both, true,
                List.of(new HistoryReadValueId(speed, null, QualifiedName.NULL_VALUE, point))).getResults()[0];
        assertThat(released.getStatusCode().isGood()).isTrue();
        HistoryReadResult reused = read(details, TimestampsToReturn.Both, speed, point);
        assertThat(reused.getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_ContinuationPointInvalid);
    }

    @Test
    void a_new_continuation_point_frees_the_oldest_beyond_the_session_limit() throws Exception {
        ReadRawModifiedDetails details = new ReadRawModifiedDetails(false, at(0), at(100), uint(10), false);
        ByteString first = read(details, TimestampsToReturn.Both, speed, null).getContinuationPoint();
        ByteString second = read(details, TimestampsToReturn.Both, speed, null).getContinuationPoint();
        ByteString third = read(details, TimestampsToReturn.Both, speed, null).getContinuationPoint();
        assertThat(read(details, TimestampsToReturn.Both, speed, first).getStatusCode().getValue())
                .isEqualTo(StatusCodes.Bad_ContinuationPointInvalid);
        HistoryReadResult continued = read(details, TimestampsToReturn.Both, speed, third);
        assertThat(numbers(values(continued))).startsWith(10.0);
        read(details, TimestampsToReturn.Both, speed, second); // uses up the last one
    }

    @Test
    void bad_requests_are_refused_with_the_status_part_4_names() {
        ReadRawModifiedDetails details = new ReadRawModifiedDetails(false, at(0), at(100), uint(10), false);
        List<HistoryReadValueId> four = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            four.add(new HistoryReadValueId(speed, null, QualifiedName.NULL_VALUE, null));
        }
        assertThatThrownBy(() -> client.historyRead(details, TimestampsToReturn.Both, false, four))
                .isInstanceOfSatisfying(UaException.class,
                        e -> assertThat(e.getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_TooManyOperations));
        assertThatThrownBy(() -> read(details, TimestampsToReturn.Neither, speed, null))
                .isInstanceOfSatisfying(UaException.class, e -> assertThat(e.getStatusCode().getValue())
                        .isEqualTo(StatusCodes.Bad_TimestampsToReturnInvalid));
    }

    @Test
    void bad_nodes_and_time_domains_get_the_status_part_11_names() throws Exception {
        assertThat(read(new ReadRawModifiedDetails(false, DateTime.MIN_VALUE, DateTime.MIN_VALUE, uint(10), false),
                TimestampsToReturn.Both, speed, null).getStatusCode().getValue())
                .isEqualTo(StatusCodes.Bad_InvalidTimestampArgument);
        assertThat(read(new ReadRawModifiedDetails(false, at(0), DateTime.MIN_VALUE, uint(0), false),
                TimestampsToReturn.Both, speed, null).getStatusCode().getValue())
                .isEqualTo(StatusCodes.Bad_InvalidTimestampArgument);
        ReadRawModifiedDetails details = new ReadRawModifiedDetails(false, at(0), at(100), uint(10), false);
        assertThat(read(details, TimestampsToReturn.Both, plain, null).getStatusCode().getValue())
                .isEqualTo(StatusCodes.Bad_NotReadable);
        assertThat(read(details, TimestampsToReturn.Both, new NodeId(speed.getNamespaceIndex(), "Nope"), null)
                .getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_NodeIdUnknown);
        NodeId recipe = new NodeId(client.getNamespaceTable().getIndex(NS + ":secret").intValue(), "Recipe");
        assertThat(read(details, TimestampsToReturn.Both, recipe, null).getStatusCode().getValue())
                .isEqualTo(StatusCodes.Bad_UserAccessDenied);
        assertThat(read(details, TimestampsToReturn.Both, Identifiers.ObjectsFolder, null).getStatusCode().getValue())
                .isEqualTo(StatusCodes.Bad_HistoryOperationUnsupported);
        // no HistoryUpdate changed Speed: read-modified finds nothing (MiloReadModifiedInteropIT reads some)
        assertThat(read(new ReadRawModifiedDetails(true, at(0), at(100), uint(10), false), TimestampsToReturn.Both,
                speed, null).getStatusCode().getValue()).isEqualTo(StatusCodes.Good_NoData);
        // at-time reads are answered by the AtTimeHistoryReader registered with every history store
        assertThat(read(new ReadAtTimeDetails(new DateTime[] {at(1)}, false), TimestampsToReturn.Both, speed, null)
                .getStatusCode().getValue()).isEqualTo(StatusCodes.Good);
        HistoryReadResult empty = read(new ReadRawModifiedDetails(false, at(-100), at(-50), uint(0), false),
                TimestampsToReturn.Both, speed, null);
        assertThat(empty.getStatusCode().getValue()).isEqualTo(StatusCodes.Good_NoData);
    }

    @Test
    void recorded_variables_say_historizing_with_the_history_access_bits() throws Exception {
        DataValue historizing = client.readValues(0, TimestampsToReturn.Neither, List.of(speed))
                .get(0); // the value itself is readable
        assertThat(historizing.getStatusCode().isGood()).isTrue();
        List<DataValue> attributes = Arrays.asList(client.read(0, TimestampsToReturn.Neither, List.of(
                new org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId(speed, AttributeId.Historizing.uid(),
                        null, QualifiedName.NULL_VALUE),
                new org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId(speed, AttributeId.AccessLevel.uid(),
                        null, QualifiedName.NULL_VALUE),
                new org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId(plain, AttributeId.Historizing.uid(),
                        null, QualifiedName.NULL_VALUE))).getResults());
        assertThat(attributes.get(0).getValue().getValue()).isEqualTo(true);
        int access = ((Number) attributes.get(1).getValue().getValue()).intValue();
        assertThat(access & 0x0F).isEqualTo(0x0F); // CurrentRead, CurrentWrite, HistoryRead, HistoryWrite
        assertThat(attributes.get(2).getValue().getValue()).isEqualTo(false);
    }

    @Test
    void the_server_publishes_its_history_capabilities() throws Exception {
        List<DataValue> values = client.readValues(0, TimestampsToReturn.Neither, List.of(
                Identifiers.Server_ServerCapabilities_MaxHistoryContinuationPoints,
                Identifiers.Server_ServerCapabilities_OperationLimits_MaxNodesPerHistoryReadData,
                Identifiers.HistoryServerCapabilities_AccessHistoryDataCapability,
                Identifiers.HistoryServerCapabilities_InsertDataCapability,
                Identifiers.HistoryServerCapabilities_DeleteRawCapability,
                Identifiers.HistoryServerCapabilities_AccessHistoryEventsCapability));
        assertThat(((Number) values.get(0).getValue().getValue()).intValue()).isEqualTo(2);
        assertThat(((Number) values.get(1).getValue().getValue()).intValue()).isEqualTo(3);
        assertThat(values.subList(2, 6)).allSatisfy(v -> assertThat(v.getValue().getValue()).isEqualTo(true));
    }

    @Test
    void a_written_value_is_recorded_and_read_back_from_history() throws Exception {
        assertThat(client.writeValues(List.of(speed), List.of(DataValue.valueOnly(new Variant(42.5)))).get(0).isGood())
                .isTrue();
        DateTime from = new DateTime(Instant.now().minus(Duration.ofMinutes(5)));
        DateTime to = new DateTime(Instant.now().plus(Duration.ofMinutes(5)));
        // recorded in the background: the history holds the value a moment after the write
        await("42.5 in the history of Speed").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .untilAsserted(() -> assertThat(numbers(values(read(new ReadRawModifiedDetails(false, from, to,
                        uint(0), false), TimestampsToReturn.Both, speed, null)))).contains(42.5));
    }

    private static DataValue at(double value, double seconds) {
        return new DataValue(new Variant(value), org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode.GOOD,
                at(seconds), null);
    }

    private static HistoryUpdateResult update(HistoryUpdateDetails details) throws UaException {
        return client.historyUpdate(List.of(details)).getResults()[0];
    }

    private static List<Long> codes(HistoryUpdateResult result) {
        return Arrays.stream(result.getOperationResults()).map(c -> c.getValue()).toList();
    }

    @Test
    void history_update_inserts_replaces_and_updates_with_a_status_per_value() throws Exception {
        HistoryUpdateResult insert = update(new UpdateDataDetails(pressure, PerformUpdateType.Insert,
                new DataValue[] {at(200.0, 20), at(201.0, 5), DataValue.valueOnly(new Variant(1.0))}));
        assertThat(insert.getStatusCode().isGood()).isTrue();
        assertThat(codes(insert)).containsExactly(StatusCodes.Good_EntryInserted, StatusCodes.Bad_EntryExists,
                StatusCodes.Bad_InvalidTimestampArgument);
        HistoryUpdateResult replace = update(new UpdateDataDetails(pressure, PerformUpdateType.Replace,
                new DataValue[] {at(206.0, 6), at(230.0, 30)}));
        assertThat(codes(replace)).containsExactly(StatusCodes.Good_EntryReplaced, StatusCodes.Bad_NoEntryExists);
        HistoryUpdateResult upsert = update(new UpdateDataDetails(pressure, PerformUpdateType.Update,
                new DataValue[] {at(207.0, 7), at(240.0, 40)}));
        assertThat(codes(upsert)).containsExactly(StatusCodes.Good_EntryReplaced, StatusCodes.Good_EntryInserted);

        List<Double> history = numbers(values(read(new ReadRawModifiedDetails(false, at(0), at(100), uint(0), false),
                TimestampsToReturn.Both, pressure, null)));
        assertThat(history).containsExactly(100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 206.0, 207.0, 108.0, 109.0,
                200.0, 240.0);
    }

    @Test
    void history_update_deletes_a_raw_range_and_names_bad_input() throws Exception {
        NodeId node = pressure;
        update(new UpdateDataDetails(node, PerformUpdateType.Insert,
                new DataValue[] {at(1.0, 60), at(2.0, 61), at(3.0, 62), at(4.0, 63)}));
        assertThat(update(new DeleteRawModifiedDetails(node, false, at(61), at(63))).getStatusCode().isGood()).isTrue();
        assertThat(numbers(values(read(new ReadRawModifiedDetails(false, at(60), at(64), uint(0), false),
                TimestampsToReturn.Both, node, null)))).containsExactly(1.0, 4.0);
        assertThat(update(new DeleteRawModifiedDetails(node, false, at(63), at(63))).getStatusCode().isGood()).isTrue();
        assertThat(update(new DeleteRawModifiedDetails(node, false, at(61), at(63))).getStatusCode().getValue())
                .isEqualTo(StatusCodes.Bad_NoData);
        assertThat(update(new DeleteRawModifiedDetails(node, false, at(70), at(65))).getStatusCode().getValue())
                .isEqualTo(StatusCodes.Bad_InvalidTimestampArgument);
        assertThat(update(new DeleteRawModifiedDetails(node, true, at(60), at(65))).getStatusCode().getValue())
                .isEqualTo(StatusCodes.Bad_HistoryOperationUnsupported);
        assertThat(update(new DeleteRawModifiedDetails(plain, false, at(0), at(1))).getStatusCode().getValue())
                .isEqualTo(StatusCodes.Bad_NotWritable);
        assertThat(update(new UpdateDataDetails(new NodeId(node.getNamespaceIndex(), "Nope"), PerformUpdateType.Insert,
                new DataValue[] {at(1.0, 1)})).getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_NodeIdUnknown);
    }
}
