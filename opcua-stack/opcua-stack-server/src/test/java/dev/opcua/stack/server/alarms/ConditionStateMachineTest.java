package dev.opcua.stack.server.alarms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.subscriptions.events.FieldPath;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * The state machines of Part 9 without a server: ConditionType's enabled state (5.5.4, 5.5.5),
 * AcknowledgeableConditionType's acknowledged and confirmed states (5.7.3, 5.7.4), the active and
 * limit states of limit alarms (5.8.18 to 5.8.20) and off-normal alarms (5.8.24.2), with the event
 * each change reports and the Retain flag.
 */
class ConditionStateMachineTest {

    private static final NodeId SOURCE = NodeId.string(2, "Motor");
    private static final NodeId INPUT = NodeId.string(2, "Motor.Temperature");
    private static final Limits LIMITS = Limits.builder().lowLow(0.0, 800).low(10.0, 300).high(80.0, 600)
            .highHigh(95.0, 900).build();

    private final List<UaEvent> events = new ArrayList<>();
    private final List<Map<FieldPath, Variant>> states = new ArrayList<>();

    private <C extends Condition> C attach(C condition) {
        condition.listener((c, event, fields) -> {
            if (event != null) {
                events.add(event);
            }
            states.add(fields);
        });
        condition.initialize();
        return condition;
    }

    private ExclusiveLimitAlarm exclusive(boolean confirmable) {
        return attach(new ExclusiveLimitAlarm(ConditionIdentity.of(NodeId.string(3, "Motor.TemperatureAlarm"), SOURCE,
                "Motor", "TemperatureAlarm"), INPUT, LIMITS, 100, confirmable));
    }

    private UaEvent last() {
        assertThat(events).isNotEmpty();
        return events.get(events.size() - 1);
    }

    private static Object field(UaEvent event, FieldPath path) {
        return event.field(path).value();
    }

    private static void assertStatus(ThrowingCallable call, int status) {
        assertThatThrownBy(call).isInstanceOf(UaException.class)
                .satisfies(e -> assertThat(((UaException) e).statusCode().value()).isEqualTo(status));
    }

    @Test
    void an_exclusive_limit_alarm_takes_the_outermost_limit_state_with_its_severity() {
        ExclusiveLimitAlarm alarm = exclusive(true);
        alarm.input(Variant.ofDouble(50.0));
        assertThat(events).as("within the limits: nothing to report").isEmpty();

        alarm.input(Variant.ofDouble(85.0));
        UaEvent high = last();
        assertThat(high.eventType()).isEqualTo(ExclusiveLimitAlarm.TYPE);
        assertThat(high.nodeId()).as("ConditionId").isEqualTo(alarm.nodeId());
        assertThat(high.sourceNode()).isEqualTo(SOURCE);
        assertThat(high.severity()).isEqualTo(600);
        assertThat(field(high, ConditionFields.ACTIVE_STATE_ID)).isEqualTo(true);
        assertThat(field(high, ConditionFields.ACKED_STATE_ID)).isEqualTo(false);
        assertThat(field(high, ConditionFields.RETAIN)).isEqualTo(true);
        assertThat(field(high, ConditionFields.LIMIT_STATE_CURRENT_STATE_ID)).isEqualTo(LimitState.HIGH.stateId());
        assertThat(((LocalizedText) field(high, ConditionFields.LIMIT_STATE_CURRENT_STATE)).text()).isEqualTo("High");
        assertThat(field(high, ConditionFields.LAST_SEVERITY)).isEqualTo(100);

        alarm.input(Variant.ofDouble(96.0));
        assertThat(alarm.limitState()).isEqualTo(LimitState.HIGH_HIGH);
        assertThat(last().severity()).isEqualTo(900);
        assertThat(field(last(), ConditionFields.LAST_SEVERITY)).isEqualTo(600);

        alarm.input(Variant.ofDouble(5.0));
        assertThat(alarm.limitState()).isEqualTo(LimitState.LOW);
        alarm.input(Variant.ofDouble(-3.0));
        assertThat(alarm.limitState()).isEqualTo(LimitState.LOW_LOW);
        assertThat(last().severity()).isEqualTo(800);
        alarm.input(Variant.ofDouble(0.0));
        assertThat(alarm.limitState()).as("a value at a limit counts as beyond it").isEqualTo(LimitState.LOW_LOW);
        int before = events.size();
        alarm.input(Variant.ofDouble(-10.0));
        assertThat(events).as("the same state again reports nothing").hasSize(before);

        alarm.input(Variant.ofDouble(50.0));
        assertThat(alarm.isActive()).isFalse();
        assertThat(last().severity()).isEqualTo(100);
        assertThat(last().field(ConditionFields.LIMIT_STATE_CURRENT_STATE_ID).isNull()).isTrue();
        assertThat(field(last(), ConditionFields.RETAIN)).as("inactive but unacknowledged").isEqualTo(true);
    }

    @Test
    void acknowledge_then_confirm_follow_the_acknowledgeable_state_machine() {
        ExclusiveLimitAlarm alarm = exclusive(true);
        alarm.input(Variant.ofDouble(85.0));
        ByteString raised = last().eventId();

        assertStatus(() -> alarm.confirm(raised, null, "op"), StatusCodes.BadConditionBranchAlreadyConfirmed);
        assertStatus(() -> alarm.acknowledge(ByteString.of(new byte[] {9}), null, "op"), StatusCodes.BadEventIdUnknown);
        assertStatus(() -> alarm.acknowledge(ByteString.NULL, null, "op"), StatusCodes.BadEventIdUnknown);

        alarm.acknowledge(raised, LocalizedText.of("checking"), "operator1");
        UaEvent acked = last();
        assertThat(acked.eventId()).isNotEqualTo(raised);
        assertThat(field(acked, ConditionFields.ACKED_STATE_ID)).isEqualTo(true);
        assertThat(field(acked, ConditionFields.CONFIRMED_STATE_ID)).isEqualTo(false);
        assertThat(field(acked, ConditionFields.COMMENT)).isEqualTo(LocalizedText.of("checking"));
        assertThat(field(acked, ConditionFields.CLIENT_USER_ID)).isEqualTo("operator1");
        assertStatus(() -> alarm.acknowledge(raised, null, "op"), StatusCodes.BadConditionBranchAlreadyAcked);

        alarm.input(Variant.ofDouble(50.0));
        assertThat(alarm.isRetained()).as("inactive, acknowledged, unconfirmed").isTrue();
        alarm.confirm(acked.eventId(), LocalizedText.NULL, "operator2");
        assertThat(field(last(), ConditionFields.CONFIRMED_STATE_ID)).isEqualTo(true);
        assertThat(field(last(), ConditionFields.COMMENT)).as("an empty comment keeps the last")
                .isEqualTo(LocalizedText.of("checking"));
        assertThat(alarm.isRetained()).isFalse();
        assertThat(field(last(), ConditionFields.RETAIN)).isEqualTo(false);
        assertStatus(() -> alarm.confirm(acked.eventId(), null, "op"), StatusCodes.BadConditionBranchAlreadyConfirmed);
    }

    @Test
    void a_more_severe_limit_state_needs_a_new_acknowledgement() {
        ExclusiveLimitAlarm alarm = exclusive(false);
        alarm.input(Variant.ofDouble(85.0));
        alarm.acknowledge(last().eventId(), null, "op");
        assertThat(alarm.isAcked()).isTrue();
        alarm.input(Variant.ofDouble(97.0));
        assertThat(alarm.isAcked()).isFalse();
        alarm.acknowledge(last().eventId(), null, "op");
        alarm.input(Variant.ofDouble(85.0));
        assertThat(alarm.isAcked()).as("a less severe state keeps the acknowledgement").isTrue();
        alarm.input(Variant.ofDouble(50.0));
        assertThat(alarm.isRetained()).as("without ConfirmedState, acknowledged and inactive is not retained").isFalse();
        assertStatus(() -> alarm.confirm(last().eventId(), null, "op"), StatusCodes.BadMethodInvalid);
        assertThat(alarm.fields()).doesNotContainKey(ConditionFields.CONFIRMED_STATE_ID);
    }

    @Test
    void a_disabled_condition_reports_once_then_stays_silent_and_reevaluates_when_enabled() {
        ExclusiveLimitAlarm alarm = exclusive(true);
        alarm.input(Variant.ofDouble(85.0));
        ByteString raised = last().eventId();

        alarm.disable("op");
        UaEvent disabled = last();
        assertThat(field(disabled, ConditionFields.ENABLED_STATE_ID)).isEqualTo(false);
        assertThat(((LocalizedText) field(disabled, ConditionFields.ENABLED_STATE)).text()).isEqualTo("Disabled");
        assertThat(field(disabled, ConditionFields.RETAIN)).isEqualTo(false);
        assertStatus(() -> alarm.disable("op"), StatusCodes.BadConditionAlreadyDisabled);
        assertStatus(() -> alarm.acknowledge(raised, null, "op"), StatusCodes.BadConditionDisabled);
        assertStatus(() -> alarm.addComment(raised, LocalizedText.of("x"), "op"), StatusCodes.BadConditionDisabled);

        int before = events.size();
        alarm.input(Variant.ofDouble(99.0));
        assertThat(events).as("a disabled condition reports nothing").hasSize(before);

        alarm.enable("op");
        UaEvent enabled = last();
        assertThat(field(enabled, ConditionFields.ENABLED_STATE_ID)).isEqualTo(true);
        assertThat(alarm.limitState()).as("the input received while disabled").isEqualTo(LimitState.HIGH_HIGH);
        assertThat(field(enabled, ConditionFields.RETAIN)).isEqualTo(true);
        assertStatus(() -> alarm.enable("op"), StatusCodes.BadConditionAlreadyEnabled);
    }

    @Test
    void add_comment_sets_the_comment_and_the_user_in_a_new_event() {
        ExclusiveLimitAlarm alarm = exclusive(true);
        alarm.input(Variant.ofDouble(85.0));
        ByteString raised = last().eventId();
        alarm.addComment(raised, LocalizedText.of("en", "maintenance called"), "operator1");
        assertThat(field(last(), ConditionFields.COMMENT)).isEqualTo(LocalizedText.of("en", "maintenance called"));
        assertThat(field(last(), ConditionFields.CLIENT_USER_ID)).isEqualTo("operator1");
        assertThat(alarm.isAcked()).as("a comment does not acknowledge").isFalse();
    }

    @Test
    void a_bad_input_sets_the_quality_and_keeps_the_state() {
        ExclusiveLimitAlarm alarm = exclusive(true);
        alarm.input(Variant.ofDouble(85.0));
        alarm.input(DataValue.ofStatus(StatusCode.of(StatusCodes.BadCommunicationError)));
        assertThat(alarm.isActive()).isTrue();
        assertThat(((StatusCode) field(last(), ConditionFields.QUALITY)).value())
                .isEqualTo(StatusCodes.BadCommunicationError);
        alarm.input(Variant.ofString("hot"));
        assertThat(alarm.quality().value()).isEqualTo(StatusCodes.BadTypeMismatch);
        alarm.input(Variant.ofDouble(50.0));
        assertThat(alarm.quality()).isEqualTo(StatusCode.GOOD);
        assertThat(alarm.isActive()).isFalse();
    }

    @Test
    void a_non_exclusive_limit_alarm_has_every_state_the_value_is_beyond() {
        NonExclusiveLimitAlarm alarm = attach(new NonExclusiveLimitAlarm(ConditionIdentity.of(
                NodeId.string(3, "Motor.Temp2"), SOURCE, "Motor", "Temp2"), INPUT, LIMITS, 100, true));
        alarm.input(Variant.ofDouble(99.0));
        assertThat(alarm.activeStates()).containsExactlyInAnyOrder(LimitState.HIGH_HIGH, LimitState.HIGH);
        assertThat(last().severity()).isEqualTo(900);
        assertThat(field(last(), LimitState.HIGH_HIGH.stateField())).isEqualTo(LocalizedText.of("en", "Active"));
        assertThat(field(last(), ConditionFields.id(LimitState.HIGH.stateField()))).isEqualTo(true);
        assertThat(field(last(), ConditionFields.id(LimitState.LOW.stateField()))).isEqualTo(false);
        alarm.input(Variant.ofDouble(85.0));
        assertThat(alarm.activeStates()).containsExactly(LimitState.HIGH);
        assertThat(last().severity()).isEqualTo(600);
        alarm.input(Variant.ofDouble(50.0));
        assertThat(alarm.isActive()).isFalse();
        assertThat(alarm.declarations()).extracting(ConditionField::path)
                .contains(LimitState.LOW_LOW.stateField(), ConditionFields.HIGH_HIGH_LIMIT)
                .doesNotContain(ConditionFields.LIMIT_STATE);
    }

    @Test
    void an_off_normal_alarm_is_active_while_its_input_differs_from_the_normal_value() {
        OffNormalAlarm alarm = attach(new OffNormalAlarm(ConditionIdentity.of(NodeId.string(3, "Door.Open"),
                SOURCE, "Door", "DoorOpen"), INPUT, NodeId.string(3, "Door.Open.NormalValue"), Variant.ofBoolean(false),
                100, 700, false));
        alarm.input(Variant.ofBoolean(false));
        assertThat(events).isEmpty();
        alarm.input(Variant.ofBoolean(true));
        assertThat(alarm.isActive()).isTrue();
        assertThat(last().eventType()).isEqualTo(OffNormalAlarm.TYPE);
        assertThat(last().severity()).isEqualTo(700);
        assertThat(field(last(), ConditionFields.NORMAL_STATE)).isEqualTo(NodeId.string(3, "Door.Open.NormalValue"));
        alarm.input(Variant.ofBoolean(false));
        assertThat(alarm.isActive()).isFalse();
        assertThat(alarm.isRetained()).as("still unacknowledged").isTrue();
    }

    @Test
    void limits_must_be_ordered_and_at_least_one_set() {
        assertThatThrownBy(() -> Limits.builder().high(80).highHigh(70).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ordered");
        assertThatThrownBy(() -> Limits.builder().build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one limit");
        assertThatThrownBy(() -> Limits.builder().high(80, 0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1..1000");
    }
}
