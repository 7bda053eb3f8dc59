package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.ushort;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.history.HistoryRecording;
import dev.opcua.stack.server.history.InMemoryHistoryStore;
import dev.opcua.stack.server.history.events.EventQuery;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.services.history.HistorySettings;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import dev.opcua.stack.server.testing.MiloClients;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.Identifiers;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.FilterOperator;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.ContentFilter;
import org.eclipse.milo.opcua.stack.core.types.structured.ContentFilterElement;
import org.eclipse.milo.opcua.stack.core.types.structured.DeleteEventDetails;
import org.eclipse.milo.opcua.stack.core.types.structured.EventFilter;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryEvent;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryEventFieldList;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadResult;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryUpdateResult;
import org.eclipse.milo.opcua.stack.core.types.structured.LiteralOperand;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadEventDetails;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.SimpleAttributeOperand;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Eclipse Milo 1.1.2's client reads and deletes the event history the server recorded (Part 11, 6.5.2
 * ReadEventDetails with an EventFilter, 6.9.7 DeleteEventDetails; Part 4, 5.10.3 and 5.10.5): events reported on a
 * recorded notifier, paged by continuation points, filtered by a where clause, deleted by EventId; and the statuses
 * of bad input.
 */
class MiloEventHistoryInteropIT {

    private static final String NS = "urn:test:milo:event-history";
    /** An hour ago, on a whole second: 10 events one second apart start here. */
    private static final Instant T0 = Instant.now().minus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS);

    private static OpcUaServer server;
    private static OpcUaClient client;
    private static InMemoryHistoryStore store;
    private static NodeId line;
    private static NodeId quiet;
    private static NodeId archive;
    private static NodeId speed;
    private static final List<UaEvent> reported = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        store = new InMemoryHistoryStore();
        InMemoryNodeManager nodes = InMemoryNodeManager.builder(NS)
                .object("Line", o -> o.eventNotifier())
                .object("Quiet", o -> o.eventNotifier())
                .object("Archive", o -> o.eventNotifier())
                .variable("Line.Speed", BuiltinType.Double, v -> v.value(
                        dev.opcua.stack.core.types.builtin.Variant.ofDouble(0)))
                .build();
        server = OpcUaServer.builder()
                .applicationUri("urn:test:milo:event-history:server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .requests(2, 8, 100)
                .nodeManager(nodes)
                .history(store, HistorySettings.DEFAULT.withMaxContinuationPoints(4))
                .historyRecording(HistoryRecording.DEFAULT.withEventNotifiers(
                        Set.of(ExpandedNodeId.parse("nsu=" + NS + ";s=Line"),
                                ExpandedNodeId.parse("nsu=" + NS + ";s=Archive")), true))
                .build();
        server.start();
        dev.opcua.stack.core.types.builtin.NodeId lineId = nodes.nodeId("Line");
        dev.opcua.stack.core.types.builtin.NodeId archiveId = nodes.nodeId("Archive");
        for (int i = 0; i < 12; i++) {
            UaEvent event = UaEvent.builder(dev.opcua.stack.core.types.builtin.NodeId.ns0(
                            dev.opcua.stack.core.ids.NodeIds.BaseEventType))
                    .sourceNode(lineId)
                    .sourceName("Line")
                    .time(dev.opcua.stack.core.types.builtin.DateTime.ofInstant(T0.plusSeconds(i)))
                    .message("trip " + i)
                    .severity(100 + i)
                    .build();
            reported.add(event);
            server.eventNotifiers().report(i < 10 ? lineId : archiveId, event); // the last two: the delete test's
        }
        // recorded in the background: the store holds all ten of Line and both of Archive a moment later
        await("the reported events recorded").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .until(() -> recordedEvents(lineId) >= 10 && recordedEvents(archiveId) >= 2);
        client = MiloClients.anonymousOverNone(server.endpointUrl());
        int ns = client.getNamespaceTable().getIndex(NS).intValue();
        line = new NodeId(ns, "Line");
        quiet = new NodeId(ns, "Quiet");
        archive = new NodeId(ns, "Archive");
        speed = new NodeId(ns, "Line.Speed");
    }

    private static int recordedEvents(dev.opcua.stack.core.types.builtin.NodeId notifier) {
        return store.readEvents(EventQuery.forward(notifier, 0, Long.MAX_VALUE, 0)).join().events().size();
    }

    @AfterAll
    static void stop() throws Exception {
        MiloClients.disconnectAndClose(client, server, store);
    }

    private static DateTime at(double seconds) {
        return MiloClients.miloTime(T0, seconds);
    }

    private static SimpleAttributeOperand field(String name) {
        return new SimpleAttributeOperand(Identifiers.BaseEventType, new QualifiedName[] {new QualifiedName(0, name)},
                AttributeId.Value.uid(), null);
    }

    private static EventFilter select(ContentFilter where, String... names) {
        return new EventFilter(Arrays.stream(names).map(MiloEventHistoryInteropIT::field)
                .toArray(SimpleAttributeOperand[]::new), where);
    }

    private static final ContentFilter ALL = new ContentFilter(new ContentFilterElement[0]);

    private static HistoryReadResult read(ReadEventDetails details, NodeId node, ByteString point) throws Exception {
        return client.historyRead(details, TimestampsToReturn.Neither, false,
                List.of(new HistoryReadValueId(node, null, QualifiedName.NULL_VALUE, point))).getResults()[0];
    }

    private static List<HistoryEventFieldList> events(HistoryReadResult result) {
        HistoryEvent data = (HistoryEvent) result.getHistoryData().decode(client.getStaticEncodingContext());
        return data.getEvents() == null ? List.of() : Arrays.asList(data.getEvents());
    }

    private static List<String> messages(List<HistoryEventFieldList> events, int messageField) {
        return events.stream().map(e -> ((LocalizedText) e.getEventFields()[messageField].getValue()).text()).toList();
    }

    @Test
    void reads_the_recorded_events_with_the_fields_the_filter_selects() throws Exception {
        HistoryReadResult result = read(new ReadEventDetails(uint(0), at(2), at(5),
                select(ALL, "EventId", "Message", "Severity", "Time", "SourceNode")), line, null);
        assertThat(result.getStatusCode().isGood()).isTrue();
        List<HistoryEventFieldList> events = events(result);
        assertThat(messages(events, 1)).containsExactly("trip 2", "trip 3", "trip 4");
        Variant[] first = events.get(0).getEventFields();
        assertThat(((ByteString) first[0].getValue()).bytesOrEmpty()).isEqualTo(reported.get(2).eventId().bytes());
        assertThat(((Number) first[2].getValue()).intValue()).isEqualTo(102);
        assertThat(first[3].getValue()).isEqualTo(at(2));
        assertThat(first[4].getValue()).isEqualTo(line);
    }

    @Test
    void applies_the_where_clause_and_reads_backward_when_the_end_is_before_the_start() throws Exception {
        ContentFilter severityAtLeast105 = new ContentFilter(new ContentFilterElement[] {new ContentFilterElement(
                FilterOperator.GreaterThanOrEqual, new ExtensionObject[] {
                    ExtensionObject.encode(client.getStaticEncodingContext(), field("Severity")),
                    ExtensionObject.encode(client.getStaticEncodingContext(),
                            new LiteralOperand(new Variant(ushort(105))))})});
        HistoryReadResult result = read(new ReadEventDetails(uint(0), at(100), at(-1),
                select(severityAtLeast105, "Message")), line, null);
        assertThat(messages(events(result), 0)).containsExactly("trip 9", "trip 8", "trip 7", "trip 6", "trip 5");
    }

    @Test
    void pages_with_continuation_points_until_the_range_is_read() throws Exception {
        ReadEventDetails details = new ReadEventDetails(uint(3), at(0), at(100), select(ALL, "Message"));
        List<Integer> pages = new ArrayList<>();
        List<String> all = new ArrayList<>();
        HistoryReadResult result = read(details, line, null);
        while (true) {
            assertThat(result.getStatusCode().isGood()).isTrue();
            List<HistoryEventFieldList> page = events(result);
            pages.add(page.size());
            all.addAll(messages(page, 0));
            ByteString point = result.getContinuationPoint();
            if (point == null || point.isNull()) {
                break;
            }
            result = read(details, line, point);
        }
        assertThat(pages).containsExactly(3, 3, 3, 1);
        assertThat(all).containsExactly("trip 0", "trip 1", "trip 2", "trip 3", "trip 4", "trip 5", "trip 6",
                "trip 7", "trip 8", "trip 9");
    }

    @Test
    void deletes_events_by_event_id_with_a_status_per_event() throws Exception {
        ByteString doomed = ByteString.of(reported.get(10).eventId().bytes());
        ByteString unknown = ByteString.of(new byte[] {1, 2, 3});
        HistoryUpdateResult result = client.historyUpdate(List.of(
                new DeleteEventDetails(archive, new ByteString[] {doomed, unknown}))).getResults()[0];
        assertThat(result.getStatusCode().isGood()).isTrue();
        assertThat(Arrays.stream(result.getOperationResults()).map(c -> c.getValue()).toList())
                .containsExactly(StatusCodes.Good, StatusCodes.Bad_EventIdUnknown);
        HistoryReadResult after = read(new ReadEventDetails(uint(0), at(0), at(100), select(ALL, "Message")),
                archive, null);
        assertThat(messages(events(after), 0)).containsExactly("trip 11");
        HistoryReadResult gone = read(new ReadEventDetails(uint(0), at(10), at(11), select(ALL, "Message")),
                archive, null);
        assertThat(gone.getStatusCode().getValue()).isEqualTo(StatusCodes.Good_NoData);
        HistoryUpdateResult none = client.historyUpdate(List.of(
                new DeleteEventDetails(archive, new ByteString[] {unknown}))).getResults()[0];
        assertThat(none.getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_NoData);
    }

    @Test
    void the_recorded_notifier_says_it_keeps_history() throws Exception {
        List<DataValue> values = Arrays.asList(client.read(0, TimestampsToReturn.Neither, List.of(
                new ReadValueId(line, AttributeId.EventNotifier.uid(), null, QualifiedName.NULL_VALUE),
                new ReadValueId(quiet, AttributeId.EventNotifier.uid(), null, QualifiedName.NULL_VALUE)))
                .getResults());
        assertThat(((Number) values.get(0).getValue().getValue()).intValue()).isEqualTo(0x0D); // Subscribe, HistoryRead/Write
        assertThat(((Number) values.get(1).getValue().getValue()).intValue()).isEqualTo(0x01);
    }

    @Test
    void bad_input_gets_the_status_part_11_names() throws Exception {
        assertThat(read(new ReadEventDetails(uint(0), DateTime.MIN_VALUE, DateTime.MIN_VALUE, select(ALL, "Message")),
                line, null).getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_InvalidTimestampArgument);
        assertThat(read(new ReadEventDetails(uint(0), at(0), DateTime.MIN_VALUE, select(ALL, "Message")),
                line, null).getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_InvalidTimestampArgument);
        assertThat(read(new ReadEventDetails(uint(0), at(0), at(10), select(ALL)), line, null).getStatusCode()
                .getValue()).isEqualTo(StatusCodes.Bad_EventFilterInvalid);
        assertThat(read(new ReadEventDetails(uint(0), at(0), at(10), select(ALL, "Message")), quiet, null)
                .getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_NotReadable);
        assertThat(read(new ReadEventDetails(uint(0), at(0), at(10), select(ALL, "Message")), speed, null)
                .getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_HistoryOperationUnsupported);
        assertThat(read(new ReadEventDetails(uint(0), at(0), at(10), select(ALL, "Message")),
                line, ByteString.of(new byte[] {7, 7})).getStatusCode().getValue())
                .isEqualTo(StatusCodes.Bad_ContinuationPointInvalid);
    }
}
