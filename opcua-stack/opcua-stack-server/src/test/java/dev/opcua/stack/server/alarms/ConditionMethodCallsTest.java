package dev.opcua.stack.server.alarms;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.CallMethodRequest;
import dev.opcua.stack.core.types.structured.CallMethodResult;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.OperationContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Call of the condition methods without a server (Part 4, 5.12.2; Part 9, 5.5.4 to 5.5.6, 5.7.3, 5.7.4):
 * the instance's method or the type's, and the refusals, each with the status the specification names.
 */
class ConditionMethodCallsTest {

    private static final String NS = "urn:test:alarms";
    private static final NodeId MOTOR = NodeId.string(2, "Motor");
    private static final NodeId TEMPERATURE = NodeId.string(2, "Motor.Temperature");
    private static final NodeId ACKNOWLEDGE = NodeId.ns0(NodeIds.AcknowledgeableConditionType_Acknowledge);
    private static final NodeId CONFIRM = NodeId.ns0(NodeIds.AcknowledgeableConditionType_Confirm);
    private static final LocalizedText COMMENT = LocalizedText.of("seen");

    private NodeManagers managers;
    private ConditionManager manager;
    private int ns;

    @BeforeEach
    void start() {
        manager = ConditionManager.builder(NS)
                .exclusiveLimitAlarm("Motor.TemperatureAlarm", o -> o.source(MOTOR, "Motor").input(TEMPERATURE)
                        .limits(Limits.builder().high(80.0, 600).build()))
                .exclusiveLimitAlarm("Motor.BearingAlarm", o -> o.source(MOTOR, "Motor").input(TEMPERATURE)
                        .limits(Limits.builder().high(70.0, 500).build()).confirmable(false))
                .build();
        managers = new NodeManagers(new NamespaceTable("urn:test:server"));
        managers.register(manager);
        managers.startup();
        ns = managers.namespaces().indexOf(NS);
    }

    private NodeId node(String path) {
        return NodeId.string(ns, path);
    }

    private AlarmCondition alarm(String path) {
        return (AlarmCondition) manager.condition(path);
    }

    private CallMethodResult call(NodeId object, NodeId method, Variant... inputs) {
        return managers.call(OperationContext.INTERNAL, new CallMethodRequest[] {
                new CallMethodRequest(object, method, inputs)}).join()[0];
    }

    private static Variant eventId(Condition condition) {
        return Variant.of(condition.lastEvent().eventId());
    }

    @Test
    void acknowledge_through_the_instance_and_confirm_through_the_type_method_change_the_condition() {
        AlarmCondition alarm = alarm("Motor.TemperatureAlarm");
        alarm.input(Variant.ofDouble(90));
        assertThat(alarm.isAcked()).isFalse();

        CallMethodResult acknowledged = call(alarm.nodeId(), node("Motor.TemperatureAlarm.Acknowledge"),
                eventId(alarm), Variant.of(COMMENT));
        assertThat(acknowledged.statusCode()).isEqualTo(StatusCode.GOOD);
        assertThat(acknowledged.outputArguments()).isEmpty();
        assertThat(alarm.isAcked()).isTrue();
        assertThat(alarm.comment()).isEqualTo(COMMENT);

        assertThat(call(alarm.nodeId(), CONFIRM, eventId(alarm), Variant.of(COMMENT)).statusCode())
                .isEqualTo(StatusCode.GOOD);
        assertThat(alarm.isConfirmed()).isTrue();
    }

    @Test
    void disable_and_enable_take_no_inputs_and_a_disabled_condition_refuses_acknowledge() {
        AlarmCondition alarm = alarm("Motor.TemperatureAlarm");
        alarm.input(Variant.ofDouble(90));
        Variant event = eventId(alarm);
        assertThat(call(alarm.nodeId(), NodeId.ns0(NodeIds.ConditionType_Disable)).statusCode())
                .isEqualTo(StatusCode.GOOD);
        assertThat(alarm.isEnabled()).isFalse();
        assertThat(call(alarm.nodeId(), ACKNOWLEDGE, event, Variant.of(COMMENT)).statusCode().value())
                .isEqualTo(StatusCodes.BadConditionDisabled);
        assertThat(call(alarm.nodeId(), node("Motor.TemperatureAlarm.Enable")).statusCode())
                .isEqualTo(StatusCode.GOOD);
        assertThat(alarm.isEnabled()).isTrue();
    }

    @Test
    void objects_that_are_unknown_not_objects_or_not_conditions_are_refused() {
        NodeId acknowledge = node("Motor.TemperatureAlarm.Acknowledge");
        assertThat(call(node("Nowhere"), acknowledge).statusCode().value()).isEqualTo(StatusCodes.BadNodeIdUnknown);
        assertThat(call(node("Motor.TemperatureAlarm.EnabledState"), acknowledge).statusCode().value())
                .isEqualTo(StatusCodes.BadNodeIdInvalid);
        assertThat(call(node("Motor.TemperatureAlarm.LimitState"), acknowledge).statusCode().value())
                .as("an object that is no condition").isEqualTo(StatusCodes.BadMethodInvalid);
    }

    @Test
    void a_method_of_another_condition_or_one_the_condition_lacks_is_refused() {
        AlarmCondition bearing = alarm("Motor.BearingAlarm");
        assertThat(call(bearing.nodeId(), node("Motor.TemperatureAlarm.Acknowledge"), Variant.NULL, Variant.NULL)
                .statusCode().value()).isEqualTo(StatusCodes.BadMethodInvalid);
        assertThat(call(bearing.nodeId(), CONFIRM, Variant.NULL, Variant.NULL).statusCode().value())
                .as("not confirmable").isEqualTo(StatusCodes.BadMethodInvalid);
        assertThat(call(bearing.nodeId(), node("Motor.TemperatureAlarm.EnabledState")).statusCode().value())
                .as("no method at all").isEqualTo(StatusCodes.BadMethodInvalid);
    }

    @Test
    void missing_extra_and_ill_typed_inputs_are_refused_before_the_condition_changes() {
        AlarmCondition alarm = alarm("Motor.TemperatureAlarm");
        alarm.input(Variant.ofDouble(90));
        assertThat(call(alarm.nodeId(), ACKNOWLEDGE, eventId(alarm)).statusCode().value())
                .isEqualTo(StatusCodes.BadArgumentsMissing);
        assertThat(call(alarm.nodeId(), ACKNOWLEDGE, eventId(alarm), Variant.of(COMMENT), Variant.ofInt32(1))
                .statusCode().value()).isEqualTo(StatusCodes.BadTooManyArguments);
        assertThat(call(alarm.nodeId(), NodeId.ns0(NodeIds.ConditionType_Enable), Variant.ofInt32(1))
                .statusCode().value()).isEqualTo(StatusCodes.BadTooManyArguments);
        CallMethodResult illTyped = call(alarm.nodeId(), ACKNOWLEDGE, Variant.ofString("event"), Variant.of(COMMENT));
        assertThat(illTyped.statusCode().value()).isEqualTo(StatusCodes.BadInvalidArgument);
        assertThat(illTyped.inputArgumentResults())
                .containsExactly(StatusCode.of(StatusCodes.BadTypeMismatch), StatusCode.GOOD);
        assertThat(alarm.isAcked()).isFalse();
    }

    @Test
    void an_event_id_the_condition_never_reported_is_refused_by_its_state_machine() {
        AlarmCondition alarm = alarm("Motor.TemperatureAlarm");
        alarm.input(Variant.ofDouble(90));
        assertThat(call(alarm.nodeId(), ACKNOWLEDGE, Variant.of(ByteString.of(new byte[] {1, 2, 3})),
                Variant.of(COMMENT)).statusCode().value()).isEqualTo(StatusCodes.BadEventIdUnknown);
    }
}
