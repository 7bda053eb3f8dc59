package dev.opcua.spring.boot.server.annotation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code @UaVariable(published = ...)}: the PubSub field a variable becomes, and the mistakes it reports. */
class UaPublishedVariableTest {

    record Point(double x, double y) {
    }

    @OpcUaNamespace("urn:test:published")
    static class Line {
        @UaVariable(published = "Line")
        double speed;

        @UaVariable(published = "Line", publishedField = "Count")
        int bottles;

        @UaVariable
        String state;

        @UaObject
        Motor motor = new Motor();
    }

    static class Motor {
        @UaVariable(published = "Line", publishedField = "MotorCurrent")
        float[] currents;
    }

    @OpcUaNamespace("urn:test:published")
    static class FieldWithoutDataSet {
        @UaVariable(publishedField = "Speed")
        double speed;
    }

    @OpcUaNamespace("urn:test:published")
    static class PublishedRecord {
        @UaVariable(published = "Line")
        Point position;
    }

    @OpcUaNamespace("urn:test:published")
    static class SameField {
        @UaVariable(published = "Line")
        double speed;

        @UaVariable(published = "Line", publishedField = "Speed")
        double otherSpeed;
    }

    @Test
    void published_variables_carry_data_set_field_type_and_rank() {
        UaObjectModel model = UaBeanIntrospector.introspect("line", new Line());
        assertThat(model.variables()).extracting(UaVariableModel::published).containsExactly("Line", "Line", null);
        assertThat(model.variables()).extracting(UaVariableModel::publishedField)
                .containsExactly("Speed", "Count", null);
        UaVariableModel current = model.objects().get(0).variables().get(0);
        assertThat(current.publishedField()).isEqualTo("MotorCurrent");
        assertThat(current.builtinType()).isEqualTo(BuiltinType.Float);
        assertThat(current.valueRank()).isEqualTo(1);
    }

    @Test
    void the_node_ids_are_known_once_the_server_started() {
        OpcUaAnnotatedNodeManagers managers = OpcUaAnnotatedNodeManagers.of(Map.of("line", new Line()));
        assertThatThrownBy(managers::publishedVariables).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("once the server started");
    }

    @Test
    void a_field_name_without_a_data_set_is_refused() {
        assertThatThrownBy(() -> UaBeanIntrospector.introspect("bean", new FieldWithoutDataSet()))
                .isInstanceOf(OpcUaAnnotationException.class)
                .hasMessageContaining("member speed: publishedField 'Speed' without published");
    }

    @Test
    void a_record_variable_is_not_published() {
        assertThatThrownBy(() -> UaBeanIntrospector.introspect("bean", new PublishedRecord()))
                .isInstanceOf(OpcUaAnnotationException.class)
                .hasMessageContaining("member position: published 'Line' on a record variable");
    }

    @Test
    void two_variables_may_not_be_one_field() {
        Map<String, Object> beans = new LinkedHashMap<>();
        beans.put("same", new SameField());
        assertThatThrownBy(() -> OpcUaAnnotatedNodeManagers.of(beans))
                .isInstanceOf(OpcUaAnnotationException.class)
                .hasMessageContaining("member otherSpeed: field 'Speed' of the published data set 'Line' is taken by")
                .hasMessageContaining("member speed");
    }
}
