package dev.opcua.spring.boot.server.annotation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.alarms.AlarmCondition;
import dev.opcua.stack.server.alarms.ConditionManager;
import dev.opcua.stack.server.alarms.ExclusiveLimitAlarm;
import dev.opcua.stack.server.alarms.NonExclusiveLimitAlarm;
import dev.opcua.stack.server.alarms.OffNormalAlarm;
import dev.opcua.stack.server.nodes.NamespaceTable;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The conditions (Part 9, 5.8.19, 5.8.20, 5.8.24.2) that {@link UaLimitAlarm} and {@link UaOffNormalAlarm}
 * variables become, without a server: in the alarms namespace, about the variable's object, driven by the
 * variable; wrong declarations are refused naming the member.
 */
class UaBeanAlarmDeclarerTest {

    private static final String NS = "urn:test:annotations:alarm-declarer";
    private static final String ALARMS = OpcUaAnnotatedNodeManager.alarmsNamespaceUri(NS);

    static final class Motor {
        @UaVariable
        @UaLimitAlarm(high = 80, highHigh = 95)
        volatile double temperature = 40;

        @UaVariable
        @UaLimitAlarm(name = "VibrationLevels", exclusive = false, high = 5)
        volatile double vibration;

        @UaVariable
        @UaOffNormalAlarm(normalValue = "false", severity = 700)
        volatile boolean overheated;
    }

    @OpcUaNamespace(value = NS, name = "Filler")
    static final class Filler {
        @UaVariable
        volatile double speed;

        @UaObject
        final Motor motor = new Motor();
    }

    @OpcUaNamespace(value = NS, name = "Quiet")
    static final class Quiet {
        @UaVariable
        volatile double speed;
    }

    @OpcUaNamespace(value = NS, name = "Wrong")
    static final class TextAlarm {
        @UaVariable
        @UaLimitAlarm(high = 1)
        volatile String state = "ok";
    }

    @OpcUaNamespace(value = NS, name = "Wrong")
    static final class UnorderedAlarm {
        @UaVariable
        @UaLimitAlarm(high = 90, highHigh = 80)
        volatile double level;
    }

    @OpcUaNamespace(value = NS, name = "Wrong")
    static final class BadNormalValue {
        @UaVariable
        @UaOffNormalAlarm(normalValue = "maybe")
        volatile boolean open;
    }

    @OpcUaNamespace(value = NS, name = "Wrong")
    static final class AlarmWithoutVariable {
        @UaLimitAlarm(high = 90)
        volatile double level;
    }

    private static List<UaObjectModel> roots(Object bean) {
        return List.of(UaBeanIntrospector.introspect("bean", bean));
    }

    @Test
    void a_namespace_without_alarms_has_no_condition_manager() {
        assertThat(UaBeanAlarmDeclarer.conditionManager(NS, ALARMS, roots(new Quiet()))).isNull();
    }

    @Test
    void each_alarm_is_a_condition_of_the_variables_object_driven_by_the_variable() {
        ConditionManager conditions = UaBeanAlarmDeclarer.conditionManager(NS, ALARMS, roots(new Filler()));
        assertThat(conditions.namespaceUri()).isEqualTo(ALARMS);
        NamespaceTable namespaces = new NamespaceTable("urn:test:server");
        int ns = namespaces.register(NS);
        namespaces.register(ALARMS);
        conditions.startup(namespaces);

        AlarmCondition temperature = (AlarmCondition) conditions.condition("Filler.Motor.TemperatureAlarm");
        assertThat(temperature).isInstanceOf(ExclusiveLimitAlarm.class);
        assertThat(temperature.identity().sourceNode()).isEqualTo(NodeId.string(ns, "Filler.Motor"));
        assertThat(temperature.identity().sourceName()).isEqualTo("Motor");
        assertThat(temperature.inputNode()).isEqualTo(NodeId.string(ns, "Filler.Motor.Temperature"));

        AlarmCondition vibration = (AlarmCondition) conditions.condition("Filler.Motor.VibrationLevels");
        assertThat(vibration).isInstanceOf(NonExclusiveLimitAlarm.class);
        assertThat(vibration.identity().conditionName()).isEqualTo("VibrationLevels");

        AlarmCondition overheated = (AlarmCondition) conditions.condition("Filler.Motor.OverheatedAlarm");
        assertThat(overheated).isInstanceOf(OffNormalAlarm.class);
        assertThat(overheated.inputNode()).isEqualTo(NodeId.string(ns, "Filler.Motor.Overheated"));
        assertThat(conditions.conditions()).hasSize(3);
    }

    @Test
    void an_off_normal_value_that_does_not_parse_as_the_member_type_is_refused() {
        assertThatThrownBy(() -> OpcUaAnnotatedNodeManagers.of(Map.of("bad", new BadNormalValue())))
                .isInstanceOf(OpcUaAnnotationException.class)
                .hasMessageContaining("open")
                .hasMessageContaining("'maybe' is not a boolean");
    }

    @Test
    void a_limit_alarm_on_a_text_variable_is_refused() {
        assertThatThrownBy(() -> OpcUaAnnotatedNodeManagers.of(Map.of("text", new TextAlarm())))
                .isInstanceOf(OpcUaAnnotationException.class)
                .hasMessageContaining("state")
                .hasMessageContaining("numeric");
    }

    @Test
    void unordered_limits_are_refused_naming_the_member() {
        assertThatThrownBy(() -> OpcUaAnnotatedNodeManagers.of(Map.of("unordered", new UnorderedAlarm())))
                .isInstanceOf(OpcUaAnnotationException.class)
                .hasMessageContaining("level")
                .hasMessageContaining("ordered");
    }

    @Test
    void a_limit_alarm_without_a_variable_is_refused() {
        assertThatThrownBy(() -> OpcUaAnnotatedNodeManagers.of(Map.of("plain", new AlarmWithoutVariable())))
                .isInstanceOf(OpcUaAnnotationException.class)
                .hasMessageContaining("belong on a @UaVariable");
    }
}
