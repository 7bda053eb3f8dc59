package dev.opcua.stack.server.alarms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.ushort;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.testing.MiloClients;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.Identifiers;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseDirection;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseResultMask;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseResult;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodResult;
import org.eclipse.milo.opcua.stack.core.types.structured.ContentFilter;
import org.eclipse.milo.opcua.stack.core.types.structured.ContentFilterElement;
import org.eclipse.milo.opcua.stack.core.types.structured.EventFilter;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.ReferenceDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.SimpleAttributeOperand;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Eclipse Milo 1.1.2's client against an ExclusiveLimitAlarm on a motor temperature (Part 9): an
 * event item on the Server object selecting the condition fields and the ConditionId receives the
 * alarm when the temperature crosses its High limit; Acknowledge and Confirm through Call with the
 * EventIds received move the state machine; ConditionRefresh replays the retained condition, same
 * EventId, between RefreshStart and RefreshEnd; the refusals carry the statuses Part 9 names.
 */
class MiloAlarmsOnOpcUaServerIT {

    /** How long an alarm event may take to reach Milo's client, and how often the test looks. */
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration POLL = Duration.ofMillis(10);

    private static final String PLANT = "urn:test:alarms:plant";
    private static final String ALARMS = "urn:test:alarms";
    private static final NodeId ACKNOWLEDGE = Identifiers.AcknowledgeableConditionType_Acknowledge;

    /** Select clauses, in this order. */
    private static final int EVENT_ID = 0;
    private static final int EVENT_TYPE = 1;
    private static final int SOURCE_NAME = 2;
    private static final int SEVERITY = 3;
    private static final int MESSAGE = 4;
    private static final int RETAIN = 5;
    private static final int ACTIVE = 6;
    private static final int ACKED = 7;
    private static final int CONFIRMED = 8;
    private static final int LIMIT_STATE = 9;
    private static final int CONDITION_ID = 10;

    private OpcUaServer server;
    private OpcUaClient client;
    private final List<Variant[]> received = new CopyOnWriteArrayList<>();
    private OpcUaSubscription subscription;
    private OpcUaMonitoredItem eventItem;

    @BeforeEach
    void start() throws Exception {
        server = OpcUaServer.builder()
                .applicationUri("urn:test:alarms:server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .requests(2, 8, 100)
                .nodeManager(InMemoryNodeManager.builder(PLANT)
                        .object("Motor", o -> o.eventNotifier())
                        .variable("Motor.Temperature", BuiltinType.Double,
                                v -> v.value(dev.opcua.stack.core.types.builtin.Variant.ofDouble(20.0)).writable())
                        .build())
                .nodeManager(ConditionManager.builder(ALARMS)
                        .inputSamplingInterval(Duration.ofMillis(20))
                        .exclusiveLimitAlarm("Motor.TemperatureAlarm", a -> a
                                .source(PLANT, "Motor", "Motor")
                                .input(PLANT, "Motor.Temperature")
                                .limits(Limits.builder().high(80.0, 600).highHigh(95.0, 900).build()))
                        .build())
                .build()
                .start();
        client = MiloClients.anonymousOverNone(server.endpointUrl());
        subscription = new OpcUaSubscription(client, 50.0);
        subscription.create();
        OpcUaMonitoredItem item = OpcUaMonitoredItem.newEventItem(Identifiers.Server, new EventFilter(
                new SimpleAttributeOperand[] {
                    field(Identifiers.BaseEventType, "EventId"), field(Identifiers.BaseEventType, "EventType"),
                    field(Identifiers.BaseEventType, "SourceName"), field(Identifiers.BaseEventType, "Severity"),
                    field(Identifiers.BaseEventType, "Message"), field(Identifiers.ConditionType, "Retain"),
                    field(Identifiers.AlarmConditionType, "ActiveState", "Id"),
                    field(Identifiers.AcknowledgeableConditionType, "AckedState", "Id"),
                    field(Identifiers.AcknowledgeableConditionType, "ConfirmedState", "Id"),
                    field(Identifiers.ExclusiveLimitAlarmType, "LimitState", "CurrentState"),
                    // Part 9, 5.5.2: the ConditionId is the NodeId of the event's node, empty browse path
                    new SimpleAttributeOperand(Identifiers.ConditionType, new QualifiedName[0],
                            AttributeId.NodeId.uid(), null)},
                new ContentFilter(new ContentFilterElement[0])));
        item.setEventValueListener((monitoredItem, values) -> received.add(values));
        eventItem = item;
        subscription.addMonitoredItem(item);
        subscription.synchronizeMonitoredItems();
        assertThat(item.getCreateResult()).hasValueSatisfying(status -> assertThat(status.isGood()).isTrue());
    }

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.disconnect();
        }
        if (server != null) {
            server.close();
        }
    }

    private static SimpleAttributeOperand field(NodeId type, String... names) {
        QualifiedName[] path = new QualifiedName[names.length];
        for (int i = 0; i < names.length; i++) {
            path[i] = new QualifiedName(0, names[i]);
        }
        return new SimpleAttributeOperand(type, path, AttributeId.Value.uid(), null);
    }

    private NodeId node(String namespaceUri, String id) {
        return new NodeId(server.namespaces().indexOf(namespaceUri), id);
    }

    private void setTemperature(double value) throws Exception {
        StatusCode written = client.writeValues(List.of(node(PLANT, "Motor.Temperature")),
                List.of(new DataValue(new Variant(value)))).get(0);
        assertThat(written.isGood()).as("write of the temperature").isTrue();
    }

    /** Waits for an alarm event that satisfies the test and returns it. */
    private Variant[] awaitAlarm(String what, java.util.function.Predicate<Variant[]> test) {
        return await(what).atMost(WAIT).pollInterval(POLL)
                .until(() -> received.stream().filter(e -> isAlarm(e) && test.test(e)).findFirst(), Optional::isPresent)
                .orElseThrow();
    }

    private static ReadValueId value(NodeId node) {
        return new ReadValueId(node, AttributeId.Value.uid(), null, QualifiedName.NULL_VALUE);
    }

    private static boolean isAlarm(Variant[] event) {
        return Identifiers.ExclusiveLimitAlarmType.equals(event[EVENT_TYPE].getValue());
    }

    private static boolean bool(Variant v) {
        return Boolean.TRUE.equals(v.getValue());
    }

    private CallMethodResult call(NodeId object, NodeId method, Variant... inputs) throws Exception {
        return client.call(List.of(new CallMethodRequest(object, method, inputs))).getResults()[0];
    }

    private static Variant[] ackInputs(Variant[] event, String comment) {
        return new Variant[] {event[EVENT_ID], new Variant(LocalizedText.english(comment))};
    }

    @Test
    void a_limit_crossing_raises_the_alarm_which_milo_acknowledges_confirms_and_refreshes() throws Exception {
        NodeId alarm = node(ALARMS, "Motor.TemperatureAlarm");
        setTemperature(85.0);

        Variant[] raised = awaitAlarm("the High alarm arrives", e -> bool(e[ACTIVE]));
        assertThat(raised[CONDITION_ID].getValue()).isEqualTo(alarm);
        assertThat(raised[SOURCE_NAME].getValue()).isEqualTo("Motor");
        assertThat(raised[SEVERITY].getValue()).isEqualTo(ushort(600));
        assertThat(((LocalizedText) raised[LIMIT_STATE].getValue()).getText()).isEqualTo("High");
        assertThat(((LocalizedText) raised[MESSAGE].getValue()).getText()).contains("High");
        assertThat(bool(raised[RETAIN])).isTrue();
        assertThat(bool(raised[ACKED])).isFalse();
        assertThat(bool(raised[CONFIRMED])).isTrue();

        // Acknowledge through the method of the type, with the condition as object (Part 9, 5.7.3)
        CallMethodResult ack = call(alarm, ACKNOWLEDGE, ackInputs(raised, "seen"));
        assertThat(ack.getStatusCode().isGood()).as("Acknowledge: " + ack.getStatusCode()).isTrue();
        Variant[] acked = awaitAlarm("the acknowledged state arrives", e -> bool(e[ACKED]));
        assertThat(bool(acked[CONFIRMED])).as("acknowledging makes it unconfirmed").isFalse();
        assertThat(acked[EVENT_ID].getValue()).isNotEqualTo(raised[EVENT_ID].getValue());
        assertThat(call(alarm, ACKNOWLEDGE, ackInputs(raised, "again")).getStatusCode().getValue())
                .isEqualTo(StatusCodes.Bad_ConditionBranchAlreadyAcked);
        assertThat(client.readValue(0, TimestampsToReturn.Neither, node(ALARMS, "Motor.TemperatureAlarm.AckedState.Id"))
                .getValue().getValue()).isEqualTo(true);
        assertThat(client.readValue(0, TimestampsToReturn.Neither, node(ALARMS, "Motor.TemperatureAlarm.Comment"))
                .getValue().getValue()).isEqualTo(LocalizedText.english("seen"));

        // Confirm through the instance's own method node (Part 9, 5.7.4)
        CallMethodResult confirm = call(alarm, node(ALARMS, "Motor.TemperatureAlarm.Confirm"), ackInputs(acked, "done"));
        assertThat(confirm.getStatusCode().isGood()).as("Confirm: " + confirm.getStatusCode()).isTrue();
        Variant[] confirmed = awaitAlarm("the confirmed state arrives", e -> bool(e[CONFIRMED]) && bool(e[ACKED]));
        assertThat(bool(confirmed[RETAIN])).as("still active, so retained").isTrue();
        // the instance's BaseEventType properties show its last event
        DataValue[] shown = client.read(0, TimestampsToReturn.Neither, List.of(
                value(node(ALARMS, "Motor.TemperatureAlarm.EventId")),
                value(node(ALARMS, "Motor.TemperatureAlarm.Severity")),
                value(node(ALARMS, "Motor.TemperatureAlarm.SourceNode")))).getResults();
        assertThat(shown[0].getValue().getValue()).isEqualTo(confirmed[EVENT_ID].getValue());
        assertThat(shown[1].getValue().getValue()).isEqualTo(ushort(600));
        assertThat(shown[2].getValue().getValue()).isEqualTo(node(PLANT, "Motor"));

        // ConditionRefresh (Part 9, 5.5.7): start, the retained condition as last reported, end
        UInteger subscriptionId = subscription.getSubscriptionId().orElseThrow();
        int before = received.size();
        CallMethodResult refresh = call(Identifiers.ConditionType, Identifiers.ConditionType_ConditionRefresh,
                new Variant(subscriptionId));
        assertThat(refresh.getStatusCode().isGood()).as("ConditionRefresh: " + refresh.getStatusCode()).isTrue();
        await("RefreshEnd arrives").atMost(WAIT).pollInterval(POLL).until(() -> received.stream().skip(before)
                .anyMatch(e -> Identifiers.RefreshEndEventType.equals(e[EVENT_TYPE].getValue())));
        List<Variant[]> replay = received.subList(before, received.size());
        assertThat(replay).extracting(e -> e[EVENT_TYPE].getValue()).containsExactly(
                Identifiers.RefreshStartEventType, Identifiers.ExclusiveLimitAlarmType, Identifiers.RefreshEndEventType);
        assertThat(replay.get(1)[EVENT_ID].getValue()).isEqualTo(confirmed[EVENT_ID].getValue());
        assertThat(replay.get(1)[CONDITION_ID].getValue()).isEqualTo(alarm);

        // back to normal: inactive, acknowledged and confirmed, so no longer retained
        setTemperature(20.0);
        Variant[] normal = awaitAlarm("the return to normal arrives", e -> !bool(e[ACTIVE]));
        assertThat(bool(normal[RETAIN])).isFalse();
        assertThat(normal[LIMIT_STATE].isNull()).isTrue();
        int beforeSecond = received.size();
        assertThat(call(Identifiers.ConditionType, Identifiers.ConditionType_ConditionRefresh,
                new Variant(subscriptionId)).getStatusCode().isGood()).isTrue();
        await("the second RefreshEnd arrives").atMost(WAIT).pollInterval(POLL)
                .until(() -> received.stream().skip(beforeSecond)
                        .anyMatch(e -> Identifiers.RefreshEndEventType.equals(e[EVENT_TYPE].getValue())));
        assertThat(received.subList(beforeSecond, received.size())).extracting(e -> e[EVENT_TYPE].getValue())
                .containsExactly(Identifiers.RefreshStartEventType, Identifiers.RefreshEndEventType);
    }

    @Test
    void methods_refuse_with_the_statuses_part_9_names() throws Exception {
        NodeId alarm = node(ALARMS, "Motor.TemperatureAlarm");
        setTemperature(99.0);
        Variant[] raised = awaitAlarm("the HighHigh alarm arrives", e -> bool(e[ACTIVE]));
        assertThat(raised[SEVERITY].getValue()).isEqualTo(ushort(900));

        assertThat(call(alarm, ACKNOWLEDGE, new Variant(ByteString.of(new byte[] {1, 2, 3})),
                new Variant(LocalizedText.english("x"))).getStatusCode().getValue())
                .isEqualTo(StatusCodes.Bad_EventIdUnknown);
        CallMethodResult wrongType = call(alarm, ACKNOWLEDGE, new Variant("not an id"), new Variant(LocalizedText.english("x")));
        assertThat(wrongType.getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_InvalidArgument);
        assertThat(wrongType.getInputArgumentResults()).extracting(StatusCode::getValue)
                .containsExactly(StatusCodes.Bad_TypeMismatch, StatusCode.GOOD.getValue());
        assertThat(call(alarm, Identifiers.ConditionType_Enable).getStatusCode().getValue())
                .isEqualTo(StatusCodes.Bad_ConditionAlreadyEnabled);
        // AddComment (Part 9, 5.5.6) through the type's method
        assertThat(call(alarm, Identifiers.ConditionType_AddComment, ackInputs(raised, "maintenance called"))
                .getStatusCode().isGood()).isTrue();
        assertThat(client.readValue(0, TimestampsToReturn.Neither, node(ALARMS, "Motor.TemperatureAlarm.Comment"))
                .getValue().getValue()).isEqualTo(LocalizedText.english("maintenance called"));
        assertThat(call(alarm, Identifiers.ConditionType_AddComment, new Variant(raised[EVENT_ID].getValue()))
                .getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_ArgumentsMissing);
        // ConditionRefresh belongs to the ConditionType object (Part 9, 5.5.7)
        assertThat(call(Identifiers.Server, Identifiers.ConditionType_ConditionRefresh,
                new Variant(subscription.getSubscriptionId().orElseThrow())).getStatusCode().getValue())
                .isEqualTo(StatusCodes.Bad_MethodInvalid);
        assertThat(call(Identifiers.ConditionType, Identifiers.ConditionType_ConditionRefresh,
                new Variant(UInteger.valueOf(987654))).getStatusCode().getValue())
                .isEqualTo(StatusCodes.Bad_SubscriptionIdInvalid);
        assertThat(call(Identifiers.ConditionType, Identifiers.ConditionType_ConditionRefresh2,
                new Variant(subscription.getSubscriptionId().orElseThrow()), new Variant(UInteger.valueOf(987654)))
                .getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_MonitoredItemIdInvalid);

        // Disable (Part 9, 5.5.5): one last event, not retained; then methods are refused
        assertThat(call(alarm, Identifiers.ConditionType_Disable).getStatusCode().isGood()).isTrue();
        awaitAlarm("the disabled state arrives", e -> !bool(e[RETAIN]) && bool(e[ACTIVE]));
        assertThat(call(alarm, ACKNOWLEDGE, ackInputs(raised, "x")).getStatusCode().getValue())
                .isEqualTo(StatusCodes.Bad_ConditionDisabled);
        assertThat(call(alarm, Identifiers.ConditionType_Disable).getStatusCode().getValue())
                .isEqualTo(StatusCodes.Bad_ConditionAlreadyDisabled);
        assertThat(client.readValue(0, TimestampsToReturn.Neither, node(ALARMS, "Motor.TemperatureAlarm.EnabledState.Id"))
                .getValue().getValue()).isEqualTo(false);

        // Enable evaluates the input again: still HighHigh, unacknowledged, retained
        int before = received.size();
        assertThat(call(alarm, Identifiers.ConditionType_Enable).getStatusCode().isGood()).isTrue();
        await("the enabled state arrives").atMost(WAIT).pollInterval(POLL)
                .until(() -> received.stream().skip(before).anyMatch(e -> bool(e[RETAIN])));
        Variant[] enabled = received.get(received.size() - 1);
        assertThat(bool(enabled[ACTIVE])).isTrue();
        assertThat(((LocalizedText) enabled[LIMIT_STATE].getValue()).getText()).isEqualTo("HighHigh");

        // ConditionRefresh2 (Part 9, 5.5.8) for the one event item
        int beforeRefresh = received.size();
        CallMethodResult refresh = call(Identifiers.ConditionType, Identifiers.ConditionType_ConditionRefresh2,
                new Variant(subscription.getSubscriptionId().orElseThrow()),
                new Variant(eventItem.getMonitoredItemId().orElseThrow()));
        assertThat(refresh.getStatusCode().isGood()).as("ConditionRefresh2: " + refresh.getStatusCode()).isTrue();
        await("RefreshEnd arrives").atMost(WAIT).pollInterval(POLL).until(() -> received.stream().skip(beforeRefresh)
                .anyMatch(e -> Identifiers.RefreshEndEventType.equals(e[EVENT_TYPE].getValue())));
        List<Variant[]> replay = received.subList(beforeRefresh, received.size());
        assertThat(replay).extracting(e -> e[EVENT_TYPE].getValue()).containsExactly(
                Identifiers.RefreshStartEventType, Identifiers.ExclusiveLimitAlarmType, Identifiers.RefreshEndEventType);
        assertThat(replay.get(1)[EVENT_ID].getValue()).isEqualTo(enabled[EVENT_ID].getValue());
    }

    private List<ReferenceDescription> browse(NodeId node, NodeId referenceType) throws Exception {
        BrowseResult result = client.browse(new BrowseDescription(node, BrowseDirection.Forward, referenceType, true,
                uint(0), uint(BrowseResultMask.All.getValue())));
        assertThat(result.getStatusCode().isGood()).isTrue();
        return result.getReferences() == null ? List.of() : List.of(result.getReferences());
    }

    @Test
    void the_condition_is_browsable_from_its_source_with_the_children_of_its_type() throws Exception {
        NodeId alarm = node(ALARMS, "Motor.TemperatureAlarm");
        assertThat(browse(node(PLANT, "Motor"), Identifiers.HasCondition))
                .extracting(r -> r.getNodeId().toNodeId(client.getNamespaceTable()).orElseThrow())
                .containsExactly(alarm);
        List<ReferenceDescription> children = browse(alarm, Identifiers.HierarchicalReferences);
        assertThat(children).extracting(r -> r.getBrowseName().getName()).contains("EventId", "Severity", "Message",
                "SourceNode", "ConditionName", "BranchId", "Retain", "EnabledState", "Quality", "LastSeverity",
                "Comment", "ClientUserId", "AckedState", "ConfirmedState", "ActiveState", "InputNode",
                "SuppressedOrShelved", "HighLimit", "HighHighLimit", "LimitState", "Enable", "Disable", "AddComment",
                "Acknowledge", "Confirm");
        assertThat(children).extracting(r -> r.getBrowseName().getName()).doesNotContain("LowLimit", "LowLowLimit");
        assertThat(browse(alarm, Identifiers.HasTypeDefinition)).extracting(r -> r.getNodeId().toNodeId(
                client.getNamespaceTable()).orElseThrow()).containsExactly(Identifiers.ExclusiveLimitAlarmType);
        assertThat(client.readValue(0, TimestampsToReturn.Neither, node(ALARMS, "Motor.TemperatureAlarm.InputNode"))
                .getValue().getValue()).isEqualTo(node(PLANT, "Motor.Temperature"));
    }
}
