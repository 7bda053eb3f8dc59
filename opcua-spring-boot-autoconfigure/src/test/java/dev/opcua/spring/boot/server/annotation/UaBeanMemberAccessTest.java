package dev.opcua.spring.boot.server.annotation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.nodes.OperationContext;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Reading, writing and calling bean members without a server: the values they convert, and the status
 * each failure of a member gives the client (Part 4, 7.38: BadInternalError, BadOutOfRange, BadTypeMismatch,
 * BadInvalidArgument, BadInvalidState).
 */
class UaBeanMemberAccessTest {

    private static final String NS = "urn:test:annotations:access";

    record Reading(double value, String unit) {
    }

    @OpcUaNamespace(value = NS, name = "Pump")
    static final class Pump {

        @UaVariable(access = UaAccess.READ_WRITE)
        volatile int speed = 3;

        private double pressure = 1.5;

        @UaVariable(access = UaAccess.READ_WRITE)
        public double getPressure() {
            return pressure;
        }

        public void setPressure(double value) {
            if (value < 0) {
                throw new IllegalArgumentException("pressure must be 0 or more, was " + value);
            }
            pressure = value;
        }

        @UaVariable
        public int getBroken() {
            throw new UnsupportedOperationException("the sensor is unplugged");
        }

        @UaMethod
        public Reading measure(int count) {
            return new Reading(pressure * count, "bar");
        }

        @UaMethod
        public void start(int rpm) {
            if (rpm > 3000) {
                throw new IllegalArgumentException("at most 3000 rpm");
            }
            throw new IllegalStateException("the pump runs already");
        }

        @UaMethod
        public void jam() {
            throw new UnsupportedOperationException("jammed");
        }
    }

    private final Pump pump = new Pump();
    private final UaObjectModel model = UaBeanIntrospector.introspect("pump", pump);
    private final UaBeanMemberAccess access = new UaBeanMemberAccess(null);

    private UaVariableModel variable(String browseName) {
        return model.variables().stream().filter(v -> v.browseName().equals(browseName)).findFirst().orElseThrow();
    }

    private UaMethodModel method(String browseName) {
        return model.methods().stream().filter(m -> m.browseName().equals(browseName)).findFirst().orElseThrow();
    }

    private UaVariableBinding binding(String browseName) {
        return new UaVariableBinding(variable(browseName), "Pump." + browseName, false);
    }

    private static void assertStatus(ThrowingCallable call, int status) {
        assertThatThrownBy(call).isInstanceOf(UaException.class)
                .satisfies(e -> assertThat(((UaException) e).statusCode().value()).isEqualTo(status));
    }

    @Test
    void a_read_converts_the_members_value_and_a_failing_getter_is_bad_internal_error() {
        assertThat(access.read(variable("Speed"))).isEqualTo(Variant.ofInt32(3));
        assertThat(access.read(variable("Pressure"))).isEqualTo(Variant.ofDouble(1.5));
        assertStatus(() -> access.read(variable("Broken")), StatusCodes.BadInternalError);
        assertThat(access.readValue(variable("Broken")).statusCode().value())
                .as("as a value source: the status, no exception").isEqualTo(StatusCodes.BadInternalError);
        assertThat(access.readValue(variable("Speed")).value()).isEqualTo(Variant.ofInt32(3));
    }

    @Test
    void a_write_reaches_the_field_or_setter_and_a_setters_refusal_is_out_of_range() {
        access.write(binding("Speed"), Variant.ofInt32(7));
        assertThat(pump.speed).isEqualTo(7);
        access.write(binding("Pressure"), Variant.ofDouble(2.5));
        assertThat(pump.getPressure()).isEqualTo(2.5);
        assertStatus(() -> access.write(binding("Pressure"), Variant.ofDouble(-1)), StatusCodes.BadOutOfRange);
        assertThat(pump.getPressure()).isEqualTo(2.5);
        assertStatus(() -> access.write(binding("Speed"), Variant.NULL), StatusCodes.BadTypeMismatch);
        assertThat(pump.speed).as("a primitive takes no null").isEqualTo(7);
    }

    @Test
    void a_call_converts_arguments_and_a_records_components_become_the_outputs() {
        Variant[] outputs = access.call(method("Measure"), OperationContext.INTERNAL, new Variant[] {Variant.ofInt32(2)});
        assertThat(outputs).containsExactly(Variant.ofDouble(3.0), Variant.ofString("bar"));
    }

    @Test
    void a_methods_exceptions_give_the_statuses_their_kinds_name() {
        assertStatus(() -> access.call(method("Start"), OperationContext.INTERNAL, new Variant[] {Variant.ofInt32(4000)}),
                StatusCodes.BadInvalidArgument);
        assertStatus(() -> access.call(method("Start"), OperationContext.INTERNAL, new Variant[] {Variant.ofInt32(100)}),
                StatusCodes.BadInvalidState);
        assertStatus(() -> access.call(method("Jam"), OperationContext.INTERNAL, new Variant[0]),
                StatusCodes.BadInternalError);
        assertStatus(() -> access.call(method("Start"), OperationContext.INTERNAL, new Variant[] {Variant.NULL}),
                StatusCodes.BadInvalidArgument);
    }
}
