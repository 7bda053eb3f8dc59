package dev.opcua.spring.boot.server.annotation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.annotation.ReflectiveRuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.ReflectionHintsPredicates;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

/** The reflection hints an {@code @OpcUaNamespace} bean class gives Spring's AOT processing. */
class UaNamespaceReflectiveProcessorTest {

    private final ReflectionHintsPredicates reflection = RuntimeHintsPredicates.reflection();

    enum Mode { IDLE, RUNNING }

    record Reading(double value, Mode mode) {
    }

    enum Shift { EARLY, LATE }

    record Limits(double low, double high) {
    }

    record Setpoint(String product, java.util.List<Limits> limits, Shift shift) {
    }

    static class Motor {
        @UaVariable double temperature;
        @UaVariable Mode mode;
    }

    static class Machine {
        @UaVariable(access = UaAccess.READ_WRITE) private double speed;
        @UaVariable(access = UaAccess.READ_WRITE) volatile Setpoint setpoint;
    }

    @OpcUaNamespace("urn:test:aot")
    static class Line extends Machine {
        @UaObject final Motor motor = new Motor();
        private int count;

        @UaVariable(access = UaAccess.READ_WRITE)
        public int getCount() {
            return count;
        }

        public void setCount(int count) {
            this.count = count;
        }

        @UaMethod
        Reading measure(Mode mode) {
            return new Reading(count, mode);
        }
    }

    @Test
    void annotated_bean_class_gets_its_declared_fields_and_methods_and_those_of_its_superclasses() {
        RuntimeHints hints = hintsFor(Line.class);

        assertThat(reflection.onFieldAccess(Line.class, "motor")).accepts(hints);
        assertThat(reflection.onMethodInvocation(Line.class, "getCount")).accepts(hints);
        assertThat(reflection.onMethodInvocation(Line.class, "setCount")).accepts(hints);
        assertThat(reflection.onMethodInvocation(Line.class, "measure")).accepts(hints);
        assertThat(reflection.onFieldAccess(Machine.class, "speed")).accepts(hints);
    }

    @Test
    void classes_held_by_ua_object_members_record_results_and_enums_are_registered_too() {
        RuntimeHints hints = hintsFor(Line.class);

        assertThat(reflection.onFieldAccess(Motor.class, "temperature")).accepts(hints);
        assertThat(reflection.onMethodInvocation(Reading.class, "value")).accepts(hints);
        assertThat(reflection.onMethodInvocation(Mode.class, "values")).accepts(hints);
    }

    @Test
    void record_variables_get_their_constructor_accessors_and_component_types() throws Exception {
        RuntimeHints hints = hintsFor(Line.class);

        assertThat(reflection.onConstructorInvocation(Setpoint.class.getDeclaredConstructor(String.class,
                java.util.List.class, Shift.class))).accepts(hints);
        assertThat(reflection.onMethodInvocation(Setpoint.class, "product")).accepts(hints);
        assertThat(reflection.onConstructorInvocation(Limits.class.getDeclaredConstructor(double.class, double.class)))
                .accepts(hints);
        assertThat(reflection.onMethodInvocation(Shift.class, "values")).accepts(hints);
    }

    @Test
    void class_without_the_annotation_gets_nothing() {
        RuntimeHints hints = hintsFor(Motor.class);

        assertThat(reflection.onType(Motor.class)).rejects(hints);
    }

    private static RuntimeHints hintsFor(Class<?> beanClass) {
        RuntimeHints hints = new RuntimeHints();
        new ReflectiveRuntimeHintsRegistrar().registerRuntimeHints(hints, beanClass);
        return hints;
    }
}
