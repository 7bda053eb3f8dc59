package dev.opcua.stack.server.alarms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The alarm declarations the builder accepts, and the refusals that name the condition and what it lacks. */
class ConditionManagerBuilderTest {

    private static final String NS = "urn:test:alarms";
    private static final NodeId MOTOR = NodeId.string(2, "Motor");
    private static final NodeId TEMPERATURE = NodeId.string(2, "Motor.Temperature");
    private static final Limits LIMITS = Limits.builder().high(80.0, 600).build();

    @Test
    void a_complete_declaration_builds_a_manager_of_its_namespace() {
        ConditionManager manager = ConditionManager.builder(NS)
                .exclusiveLimitAlarm("Motor.TemperatureAlarm", o -> o.source(MOTOR, "Motor").input(TEMPERATURE)
                        .limits(LIMITS))
                .nonExclusiveLimitAlarm("Motor.TemperatureLevels", o -> o.source(MOTOR, "Motor").input(TEMPERATURE)
                        .limits(LIMITS))
                .offNormalAlarm("Door.Open", o -> o.source("urn:test:plant", "Door", "Door")
                        .input("urn:test:plant", "Door.Open").normalValue(Variant.ofBoolean(false)))
                .build();
        assertThat(manager.namespaceUri()).isEqualTo(NS);
        assertThat(manager.namespaceUris()).containsExactly(NS);
        assertThat(manager.conditions()).as("created at start").isEmpty();
        assertThatThrownBy(() -> manager.condition("Motor.TemperatureAlarm"))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void a_builder_needs_a_namespace_uri() {
        assertThatThrownBy(() -> ConditionManager.builder(""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("namespaceUri");
    }

    @Test
    void a_path_is_refused_unless_it_is_dot_separated_names_declared_once() {
        assertThatThrownBy(() -> ConditionManager.builder(NS).exclusiveLimitAlarm("Motor..Alarm", o -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dot-separated");
        assertThatThrownBy(() -> ConditionManager.builder(NS)
                .exclusiveLimitAlarm("Motor.Alarm", o -> { })
                .offNormalAlarm("Motor.Alarm", o -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("declared already");
    }

    @Test
    void a_declaration_without_source_input_limits_or_normal_value_is_refused_naming_the_condition() {
        assertThatThrownBy(() -> ConditionManager.builder(NS)
                .exclusiveLimitAlarm("Motor.Alarm", o -> o.input(TEMPERATURE).limits(LIMITS)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("condition Motor.Alarm needs a source node and its name: source(...)");
        assertThatThrownBy(() -> ConditionManager.builder(NS)
                .exclusiveLimitAlarm("Motor.Alarm", o -> o.source(MOTOR, "Motor").limits(LIMITS)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("condition Motor.Alarm needs an input variable: input(...)");
        assertThatThrownBy(() -> ConditionManager.builder(NS)
                .nonExclusiveLimitAlarm("Motor.Alarm", o -> o.source(MOTOR, "Motor").input(TEMPERATURE)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("condition Motor.Alarm needs its limits: limits(...)");
        assertThatThrownBy(() -> ConditionManager.builder(NS)
                .offNormalAlarm("Door.Open", o -> o.source(MOTOR, "Door").input(TEMPERATURE)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("condition Door.Open needs its normal value: normalValue(...)");
    }

    @Test
    void severities_outside_one_to_a_thousand_and_sampling_intervals_below_a_millisecond_are_refused() {
        assertThatThrownBy(() -> ConditionManager.builder(NS).exclusiveLimitAlarm("Motor.Alarm",
                o -> o.normalSeverity(0))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1..1000");
        assertThatThrownBy(() -> ConditionManager.builder(NS).offNormalAlarm("Door.Open",
                o -> o.activeSeverity(1001))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1..1000");
        assertThatThrownBy(() -> ConditionManager.builder(NS).inputSamplingInterval(Duration.ofNanos(10)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("inputSamplingInterval");
        assertThatThrownBy(() -> ConditionManager.builder(NS).inputSamplingInterval(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("inputSamplingInterval");
    }
}
