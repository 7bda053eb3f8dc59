package dev.opcua.spring.boot.client.listener.adapter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.opcua.spring.boot.client.listener.ListenerNotification;
import dev.opcua.spring.boot.client.listener.OpcUaListenerArgumentException;
import dev.opcua.spring.boot.client.listener.OpcUaListenerEndpoint.Kind;
import dev.opcua.spring.boot.client.listener.OpcUaListenerMethodException;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import java.lang.reflect.Method;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Listener methods whose parameters the resolver chain feeds. */
class OpcUaListenerMethodAdapterTest {

    private static final List<String> FIELDS = List.of("Severity", "Message", "Time");

    final List<Object> calls = new ArrayList<>();

    void speedAndRaw(double speed, DataValue raw) {
        calls.add(speed);
        calls.add(raw);
    }

    void rawFirst(StatusCode status, Variant variant, long value) {
        calls.add(status);
        calls.add(variant);
        calls.add(value);
    }

    void twoValues(double a, double b) {
    }

    void unfeedable(Map<String, Object> map) {
    }

    void alarm(int severity, LocalizedText message, Instant time) {
        calls.add(severity);
        calls.add(message);
        calls.add(time);
    }

    void allFields(Variant[] fields, List<Variant> same) {
        calls.add(fields);
        calls.add(same);
    }

    void tooManyFields(int severity, String message, Instant time, String extra) {
    }

    void throwing(double value) throws Exception {
        throw new java.io.IOException("device says no");
    }

    @Test
    void data_change_method_gets_the_converted_value_and_the_data_value_in_any_order() throws Exception {
        DataValue value = DataValue.of(Variant.ofFloat(2.5f));
        adapter("speedAndRaw", Kind.DATA_CHANGE, List.of()).invoke(new ListenerNotification.DataChange(null, value));
        adapter("rawFirst", Kind.DATA_CHANGE, List.of()).invoke(new ListenerNotification.DataChange(null,
                DataValue.of(Variant.ofInt32(9))));

        assertThat(calls).containsExactly(2.5, value, StatusCode.GOOD, Variant.ofInt32(9), 9L);
    }

    @Test
    void event_method_gets_the_selected_fields_in_order() throws Exception {
        DateTime time = DateTime.ofEpochMillis(1_000);
        adapter("alarm", Kind.EVENT, FIELDS).invoke(new ListenerNotification.Event(null, new Variant[] {
                Variant.ofUInt16(700), Variant.ofScalar(BuiltinType.LocalizedText, LocalizedText.of("en", "trip")),
                Variant.ofScalar(BuiltinType.DateTime, time)}));

        assertThat(calls).containsExactly(700, LocalizedText.of("en", "trip"), Instant.ofEpochMilli(1_000));
    }

    @Test
    void event_method_may_take_all_fields_as_variants() throws Exception {
        Variant[] fields = {Variant.ofUInt16(1), Variant.NULL, Variant.ofString("x")};
        adapter("allFields", Kind.EVENT, FIELDS).invoke(new ListenerNotification.Event(null, fields));

        assertThat((Variant[]) calls.get(0)).containsExactly(fields);
        assertThat(calls.get(1)).isEqualTo(List.of(fields));
    }

    @Test
    void a_parameter_no_resolver_feeds_fails_naming_method_and_parameter() {
        assertThatExceptionOfType(OpcUaListenerMethodException.class)
                .isThrownBy(() -> adapter("unfeedable", Kind.DATA_CHANGE, List.of()))
                .withMessageContaining("unfeedable")
                .withMessageContaining("parameter 1 'map' (java.util.Map<java.lang.String, java.lang.Object>) cannot "
                        + "be fed from a data change")
                .withMessageContaining("Allowed: the value as");
    }

    @Test
    void a_second_value_of_a_data_change_is_refused() {
        assertThatExceptionOfType(OpcUaListenerMethodException.class)
                .isThrownBy(() -> adapter("twoValues", Kind.DATA_CHANGE, List.of()))
                .withMessageContaining("parameter 2 'b' (double) would be a second value");
    }

    @Test
    void more_value_parameters_than_fields_are_refused() {
        assertThatExceptionOfType(OpcUaListenerMethodException.class)
                .isThrownBy(() -> adapter("tooManyFields", Kind.EVENT, FIELDS))
                .withMessageContaining("parameter 4 'extra' (java.lang.String) has no field: the listener selects 3 "
                        + "fields [Severity, Message, Time]");
    }

    @Test
    void a_value_that_does_not_fit_fails_that_delivery_naming_the_field() {
        OpcUaListenerMethodAdapterTest.this.calls.clear();
        assertThatExceptionOfType(OpcUaListenerArgumentException.class)
                .isThrownBy(() -> adapter("alarm", Kind.EVENT, FIELDS).invoke(new ListenerNotification.Event(null,
                        new Variant[] {Variant.ofString("high"), Variant.NULL, Variant.NULL})))
                .withMessageContaining("the field Severity: the value high (String) does not convert to int");
        assertThat(calls).isEmpty();
    }

    @Test
    void what_the_method_throws_comes_out_unwrapped() {
        assertThatExceptionOfType(java.io.IOException.class)
                .isThrownBy(() -> adapter("throwing", Kind.DATA_CHANGE, List.of())
                        .invoke(new ListenerNotification.DataChange(null, DataValue.of(Variant.ofDouble(1)))))
                .withMessage("device says no");
    }

    private OpcUaListenerMethodAdapter adapter(String name, Kind kind, List<String> fields) {
        Method method = java.util.Arrays.stream(getClass().getDeclaredMethods())
                .filter(m -> m.getName().equals(name)).findFirst().orElseThrow();
        return OpcUaListenerMethodAdapter.create(this, method, "method " + name, kind, fields,
                OpcUaListenerMethodAdapter.defaultResolvers());
    }
}
