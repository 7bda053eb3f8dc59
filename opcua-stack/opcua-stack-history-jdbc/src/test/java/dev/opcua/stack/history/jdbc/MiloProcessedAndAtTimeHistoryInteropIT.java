package dev.opcua.stack.history.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.ubyte;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.history.HistorySample;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.services.history.HistorySettings;
import dev.opcua.stack.server.testing.MiloClients;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.Identifiers;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseDirection;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseResultMask;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.AggregateConfiguration;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryData;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadDetails;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadResult;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadAtTimeDetails;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadProcessedDetails;
import org.eclipse.milo.opcua.stack.core.types.structured.ReferenceDescription;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Eclipse Milo 1.1.2's client reads processed (Part 11, 6.5.4; Part 13 aggregates) and at-time (Part 11, 6.5.5)
 * history from our server over the PostgreSQL store ({@link JdbcHistoryStore} on {@link TestPostgres}), pages processed results by continuation point, gets the
 * statuses Part 11 and Part 13 name for bad requests, and finds the aggregates in
 * HistoryServerCapabilities.AggregateFunctions.
 *
 * <p>History of Speed, seconds from 12:00:00: 10, 20, 30 Good at 0, 10, 20; Bad at 30; 50 Good at 40; 60
 * Uncertain at 50.
 */
class MiloProcessedAndAtTimeHistoryInteropIT {

    private static final String NS = "urn:test:milo:history";
    private static final Instant BASE = Instant.parse("2026-01-01T12:00:00Z");
    /** Data-value info type with the Calculated / Interpolated historian bits (Part 4, 7.39.1). */
    private static final long CALCULATED = 0x0401;
    private static final long INTERPOLATED = 0x0402;
    private static final long MAX_RETURN_VALUES = 4;

    private static OpcUaServer server;
    private static JdbcHistoryStore history;
    private static OpcUaClient client;
    private static NodeId speed;

    @BeforeAll
    static void start() throws Exception {
        NodeStore nodes = new NodeStore(2);
        history = JdbcHistoryStore.open(TestPostgres.dataSource(), JdbcHistoryOptions.DEFAULT.withTable("milo_processed"));
        server = OpcUaServer.builder()
                .applicationUri("urn:test:milo:history-server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .requests(2, 8, 100)
                .nodeManager(new NodeStoreNodeManager(List.of(NS), nodes))
                .history(history, new HistorySettings(0, 0, 0, 0, 10, (int) MAX_RETURN_VALUES))
                .build();
        int ns = server.namespaces().indexOf(NS);
        dev.opcua.stack.core.types.builtin.NodeId id = dev.opcua.stack.core.types.builtin.NodeId.string(ns, "Speed");
        // AccessLevel CurrentRead | CurrentWrite | HistoryRead
        VariableNode node = new VariableNode(id, dev.opcua.stack.core.types.builtin.QualifiedName.of(ns, "Speed"),
                null, null, 0, 0, dev.opcua.stack.core.types.builtin.DataValue.of(
                        dev.opcua.stack.core.types.builtin.Variant.ofDouble(60)),
                ValueAttributes.scalar(dev.opcua.stack.core.types.builtin.NodeId.ns0(NodeIds.Double)), (short) 7,
                (short) 7, 0, true, 7);
        node.addReference(UaReference.inverse(dev.opcua.stack.core.types.builtin.NodeId.ns0(NodeIds.Organizes),
                dev.opcua.stack.core.types.builtin.NodeId.ns0(NodeIds.ObjectsFolder)));
        nodes.add(node);
        history.append(List.of(sample(id, 0, 10, StatusCodes.Good), sample(id, 10, 20, StatusCodes.Good),
                sample(id, 20, 30, StatusCodes.Good), sample(id, 30, null, StatusCodes.BadSensorFailure),
                sample(id, 40, 50, StatusCodes.Good), sample(id, 50, 60, StatusCodes.UncertainSensorNotAccurate)))
                .join();
        server.start();
        client = MiloClients.anonymousOverNone(server.endpointUrl());
        speed = new NodeId(client.getNamespaceTable().getIndex(NS), "Speed");
    }

    private static HistorySample sample(dev.opcua.stack.core.types.builtin.NodeId node, int second, Integer value,
            int status) {
        dev.opcua.stack.core.types.builtin.DateTime time =
                dev.opcua.stack.core.types.builtin.DateTime.ofInstant(BASE.plusSeconds(second));
        return new HistorySample(node, dev.opcua.stack.core.types.builtin.DataValue.of(
                value == null ? dev.opcua.stack.core.types.builtin.Variant.NULL
                        : dev.opcua.stack.core.types.builtin.Variant.ofDouble(value),
                dev.opcua.stack.core.types.builtin.StatusCode.of(status), time, time));
    }

    @AfterAll
    static void stop() throws Exception {
        MiloClients.disconnectAndClose(client, server, history);
    }

    private static DateTime at(int second) {
        return MiloClients.miloTime(BASE, second);
    }

    private static ReadProcessedDetails processed(int from, int to, double intervalMillis, NodeId... aggregates) {
        return new ReadProcessedDetails(at(from), at(to), intervalMillis, aggregates,
                new AggregateConfiguration(true, false, ubyte(100), ubyte(100), false));
    }

    private static HistoryReadResult[] read(HistoryReadDetails details, TimestampsToReturn timestamps,
            HistoryReadValueId... ids) throws Exception {
        return client.historyRead(details, timestamps, false, List.of(ids)).getResults();
    }

    private static HistoryReadValueId node(ByteString continuation) {
        return new HistoryReadValueId(speed, null, QualifiedName.NULL_VALUE, continuation);
    }

    private static List<DataValue> values(HistoryReadResult result) {
        HistoryData data = (HistoryData) result.getHistoryData().decode(client.getStaticEncodingContext());
        return data.getDataValues() == null ? List.of() : List.of(data.getDataValues());
    }

    @Test
    void milo_reads_minimum_and_maximum_of_one_node_in_one_request() throws Exception {
        HistoryReadResult[] results = read(processed(0, 30, 0, Identifiers.AggregateFunction_Minimum,
                Identifiers.AggregateFunction_Maximum), TimestampsToReturn.Source, node(null), node(null));

        DataValue min = values(results[0]).get(0);
        DataValue max = values(results[1]).get(0);
        assertThat(min.getValue().getValue()).isEqualTo(10.0);
        assertThat(min.getStatusCode().getValue()).isEqualTo(StatusCodes.Good & 0xFFFFFFFFL); // Raw: on the start time
        assertThat(max.getValue().getValue()).isEqualTo(30.0);
        assertThat(max.getStatusCode().getValue()).isEqualTo(CALCULATED);
        assertThat(max.getSourceTime()).isEqualTo(at(0));
    }

    @Test
    void milo_pages_a_processed_average_by_continuation_point() throws Exception {
        ReadProcessedDetails average = processed(0, 60, 10_000, Identifiers.AggregateFunction_Average);

        HistoryReadResult first = read(average, TimestampsToReturn.Both, node(null))[0];
        List<DataValue> page = new ArrayList<>(values(first));
        assertThat(page).hasSize((int) MAX_RETURN_VALUES);
        assertThat(first.getContinuationPoint().isNotNull()).isTrue();
        HistoryReadResult second = read(average, TimestampsToReturn.Both, node(first.getContinuationPoint()))[0];
        page.addAll(values(second));
        assertThat(second.getContinuationPoint() == null || second.getContinuationPoint().isNull()).isTrue();

        assertThat(page).extracting(v -> v.getSourceTime()).containsExactly(at(0), at(10), at(20), at(30), at(40),
                at(50));
        assertThat(page).extracting(v -> v.getValue().getValue()).containsExactly(10.0, 20.0, 30.0, null, 50.0, null);
        assertThat(page.get(0).getStatusCode().getValue()).isEqualTo(CALCULATED);
        assertThat(page.get(3).getStatusCode().getValue()).isEqualTo(StatusCodes.BadNoData & 0xFFFFFFFFL);
    }

    @Test
    void milo_reads_a_time_average_across_a_bad_value_as_uncertain() throws Exception {
        DataValue value = values(read(processed(20, 40, 0, Identifiers.AggregateFunction_TimeAverage),
                TimestampsToReturn.Source, node(null))[0]).get(0);

        assertThat(value.getValue().getValue()).isEqualTo(40.0);
        assertThat(value.getStatusCode().getValue())
                .isEqualTo((StatusCodes.UncertainDataSubNormal & 0xFFFFFFFFL) | CALCULATED);
    }

    @Test
    void milo_reads_values_at_times_raw_interpolated_and_with_simple_bounds() throws Exception {
        List<DataValue> interpolated = values(read(new ReadAtTimeDetails(new DateTime[] {at(5), at(10), at(35)},
                false), TimestampsToReturn.Source, node(null))[0]);
        List<DataValue> simple = values(read(new ReadAtTimeDetails(new DateTime[] {at(35), at(-5)}, true),
                TimestampsToReturn.Source, node(null))[0]);

        assertThat(interpolated).extracting(v -> v.getValue().getValue()).containsExactly(15.0, 20.0, 45.0);
        assertThat(interpolated).extracting(v -> v.getStatusCode().getValue()).containsExactly(INTERPOLATED,
                StatusCodes.Good & 0xFFFFFFFFL, (StatusCodes.UncertainDataSubNormal & 0xFFFFFFFFL) | INTERPOLATED);
        assertThat(interpolated).extracting(v -> v.getSourceTime()).containsExactly(at(5), at(10), at(35));
        assertThat(simple).extracting(v -> v.getStatusCode().getValue())
                .containsOnly(StatusCodes.BadNoData & 0xFFFFFFFFL);
    }

    @Test
    void milo_gets_the_statuses_part_11_names_for_bad_processed_requests() throws Exception {
        HistoryReadResult unknown = read(processed(0, 60, 0, new NodeId(2, "NoSuchAggregate")),
                TimestampsToReturn.Source, node(null))[0];
        HistoryReadResult mismatch = read(processed(0, 60, 0, Identifiers.AggregateFunction_Average),
                TimestampsToReturn.Source, node(null), node(null))[0];
        HistoryReadResult serverTime = read(processed(0, 60, 0, Identifiers.AggregateFunction_Average),
                TimestampsToReturn.Server, node(null))[0];
        HistoryReadResult rejected = read(new ReadProcessedDetails(at(0), at(60), 0.0,
                new NodeId[] {Identifiers.AggregateFunction_Average},
                new AggregateConfiguration(false, true, ubyte(40), ubyte(40), false)), TimestampsToReturn.Source,
                node(null))[0];

        assertThat(unknown.getStatusCode().getValue()).isEqualTo(StatusCodes.BadAggregateNotSupported & 0xFFFFFFFFL);
        assertThat(mismatch.getStatusCode().getValue()).isEqualTo(StatusCodes.BadAggregateListMismatch & 0xFFFFFFFFL);
        assertThat(serverTime.getStatusCode().getValue())
                .isEqualTo(StatusCodes.BadTimestampsToReturnInvalid & 0xFFFFFFFFL);
        assertThat(rejected.getStatusCode().getValue())
                .isEqualTo(StatusCodes.BadAggregateConfigurationRejected & 0xFFFFFFFFL);
    }

    @Test
    void milo_finds_the_aggregates_in_history_server_capabilities() throws Exception {
        List<ReferenceDescription> found = List.of(client.browse(new BrowseDescription(
                Identifiers.HistoryServerCapabilities_AggregateFunctions, BrowseDirection.Forward,
                Identifiers.HierarchicalReferences, true, uint(0), uint(BrowseResultMask.All.getValue())))
                .getReferences());

        assertThat(found).extracting(r -> r.getBrowseName().getName()).contains("Average", "TimeAverage", "Total",
                "Minimum", "Maximum", "Count", "Interpolative", "Start", "End", "Delta", "DurationGood",
                "DurationBad");
    }
}
