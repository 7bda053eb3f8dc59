package dev.opcua.spring.boot.server.annotation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.Argument;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The model an annotated bean becomes: names, data types, access, nesting, methods and every error. */
class UaBeanIntrospectorTest {

    enum Mode { IDLE, RUNNING, FAULT }

    @OpcUaNamespace("urn:test:types")
    static class Scalars {
        @UaVariable boolean aBoolean;
        @UaVariable Boolean aBoxedBoolean;
        @UaVariable byte aByte;
        @UaVariable short aShort;
        @UaVariable int anInt;
        @UaVariable Integer aBoxedInt;
        @UaVariable long aLong;
        @UaVariable float aFloat;
        @UaVariable double aDouble;
        @UaVariable String aString;
        @UaVariable Instant anInstant;
        @UaVariable UUID aUuid;
        @UaVariable byte[] someBytes;
        @UaVariable Mode anEnum;
        @UaVariable DateTime aDateTime;
        @UaVariable ByteString aByteString;
        @UaVariable NodeId aNodeId;
        @UaVariable QualifiedName aQualifiedName;
        @UaVariable LocalizedText aLocalizedText;
    }

    @OpcUaNamespace("urn:test:types")
    static class Arrays {
        @UaVariable boolean[] booleans;
        @UaVariable Byte[] signedBytes;
        @UaVariable short[] shorts;
        @UaVariable int[] ints;
        @UaVariable Integer[] boxedInts;
        @UaVariable long[] longs;
        @UaVariable float[] floats;
        @UaVariable double[] doubles;
        @UaVariable String[] strings;
        @UaVariable Instant[] instants;
        @UaVariable UUID[] uuids;
        @UaVariable byte[][] byteStrings;
        @UaVariable Mode[] enums;
        @UaVariable List<Double> doubleList;
        @UaVariable List<String> stringList;
        @UaVariable List<Instant> instantList;
    }

    @OpcUaNamespace("urn:test:types")
    static class Overrides {
        @UaVariable(dataType = BuiltinType.Byte) short unsignedByte;
        @UaVariable(dataType = BuiltinType.UInt16) int unsignedShort;
        @UaVariable(dataType = BuiltinType.UInt32) long unsignedInt;
        @UaVariable(dataType = BuiltinType.UInt64) Long unsignedLong;
        @UaVariable(dataType = BuiltinType.String) Mode enumByName;
        @UaVariable(dataType = BuiltinType.UInt32) long[] unsignedInts;
    }

    @Test
    void every_supported_scalar_type_maps_to_its_data_type() {
        UaObjectModel model = introspect(new Scalars());
        assertThat(model.variables()).allSatisfy(v -> assertThat(v.valueRank()).isEqualTo(-1));
        assertThat(typesByName(model)).containsExactly(
                Map.entry("ABoolean", BuiltinType.Boolean), Map.entry("ABoxedBoolean", BuiltinType.Boolean),
                Map.entry("AByte", BuiltinType.SByte), Map.entry("AShort", BuiltinType.Int16),
                Map.entry("AnInt", BuiltinType.Int32), Map.entry("ABoxedInt", BuiltinType.Int32),
                Map.entry("ALong", BuiltinType.Int64), Map.entry("AFloat", BuiltinType.Float),
                Map.entry("ADouble", BuiltinType.Double), Map.entry("AString", BuiltinType.String),
                Map.entry("AnInstant", BuiltinType.DateTime), Map.entry("AUuid", BuiltinType.Guid),
                Map.entry("SomeBytes", BuiltinType.ByteString), Map.entry("AnEnum", BuiltinType.Int32),
                Map.entry("ADateTime", BuiltinType.DateTime), Map.entry("AByteString", BuiltinType.ByteString),
                Map.entry("ANodeId", BuiltinType.NodeId), Map.entry("AQualifiedName", BuiltinType.QualifiedName),
                Map.entry("ALocalizedText", BuiltinType.LocalizedText));
        assertThat(variable(model, "ADouble").dataType()).isEqualTo(NodeId.ns0(11));
    }

    @Test
    void arrays_and_lists_map_to_one_dimensional_arrays_of_their_element_type() {
        UaObjectModel model = introspect(new Arrays());
        assertThat(model.variables()).allSatisfy(v -> assertThat(v.valueRank()).isEqualTo(1));
        assertThat(typesByName(model)).containsExactly(
                Map.entry("Booleans", BuiltinType.Boolean), Map.entry("SignedBytes", BuiltinType.SByte),
                Map.entry("Shorts", BuiltinType.Int16), Map.entry("Ints", BuiltinType.Int32),
                Map.entry("BoxedInts", BuiltinType.Int32), Map.entry("Longs", BuiltinType.Int64),
                Map.entry("Floats", BuiltinType.Float), Map.entry("Doubles", BuiltinType.Double),
                Map.entry("Strings", BuiltinType.String), Map.entry("Instants", BuiltinType.DateTime),
                Map.entry("Uuids", BuiltinType.Guid), Map.entry("ByteStrings", BuiltinType.ByteString),
                Map.entry("Enums", BuiltinType.Int32), Map.entry("DoubleList", BuiltinType.Double),
                Map.entry("StringList", BuiltinType.String), Map.entry("InstantList", BuiltinType.DateTime));
    }

    @Test
    void a_data_type_override_picks_an_unsigned_type_or_enum_names() {
        assertThat(typesByName(introspect(new Overrides()))).containsExactly(
                Map.entry("UnsignedByte", BuiltinType.Byte), Map.entry("UnsignedShort", BuiltinType.UInt16),
                Map.entry("UnsignedInt", BuiltinType.UInt32), Map.entry("UnsignedLong", BuiltinType.UInt64),
                Map.entry("EnumByName", BuiltinType.String), Map.entry("UnsignedInts", BuiltinType.UInt32));
    }

    @Test
    void values_convert_to_variants_and_back() {
        UaObjectModel scalars = introspect(new Scalars());
        Instant now = Instant.parse("2024-05-01T12:00:00Z");
        UaValueConverter instant = variable(scalars, "AnInstant").converter();
        assertThat(instant.toVariant(now).value()).isEqualTo(DateTime.ofInstant(now));
        assertThat(instant.fromVariant(instant.toVariant(now))).isEqualTo(now);
        UaValueConverter bytes = variable(scalars, "SomeBytes").converter();
        assertThat(bytes.toVariant(new byte[] {1, 2}).value()).isEqualTo(ByteString.of(new byte[] {1, 2}));
        assertThat((byte[]) bytes.fromVariant(Variant.ofScalar(BuiltinType.ByteString, ByteString.of(new byte[] {3}))))
                .containsExactly(3);
        UaValueConverter mode = variable(scalars, "AnEnum").converter();
        assertThat(mode.toVariant(Mode.FAULT)).isEqualTo(Variant.ofInt32(2));
        assertThat(mode.fromVariant(Variant.ofInt32(1))).isEqualTo(Mode.RUNNING);
        assertThat(mode.toVariant(null).isNull()).isTrue();
        UaValueConverter byName = variable(introspect(new Overrides()), "EnumByName").converter();
        assertThat(byName.toVariant(Mode.IDLE)).isEqualTo(Variant.ofString("IDLE"));
        assertThat(byName.fromVariant(Variant.ofString("FAULT"))).isEqualTo(Mode.FAULT);

        UaObjectModel arrays = introspect(new Arrays());
        UaValueConverter boxed = variable(arrays, "BoxedInts").converter();
        assertThat((int[]) boxed.toVariant(new Integer[] {1, 2}).value()).containsExactly(1, 2);
        assertThat((Integer[]) boxed.fromVariant(Variant.ofArray(BuiltinType.Int32, new int[] {3}))).containsExactly(3);
        UaValueConverter list = variable(arrays, "DoubleList").converter();
        assertThat((double[]) list.toVariant(List.of(1.5, 2.5)).value()).containsExactly(1.5, 2.5);
        assertThat(list.fromVariant(Variant.ofArray(BuiltinType.Double, new double[] {4.0}))).isEqualTo(List.of(4.0));
        double[] doubles = {1.0};
        Variant copied = variable(arrays, "Doubles").converter().toVariant(doubles);
        doubles[0] = 9.0;
        assertThat((double[]) copied.value()).as("the array is copied, not shared").containsExactly(1.0);
    }

    @Test
    void an_enum_value_without_a_constant_is_out_of_range() {
        UaValueConverter mode = variable(introspect(new Scalars()), "AnEnum").converter();
        assertThatThrownBy(() -> mode.fromVariant(Variant.ofInt32(3)))
                .isInstanceOfSatisfying(UaException.class,
                        e -> assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadOutOfRange))
                .hasMessageContaining("3 is not an ordinal of Mode, allowed 0..2");
    }

    @OpcUaNamespace(value = "urn:test:access", name = "Pump", displayName = "Pump 1", description = "the pump")
    static class Access {
        @UaVariable(access = UaAccess.READ_WRITE) double setpoint;
        @UaVariable final double fixed = 1;
        private double speed;
        private boolean running;
        private String url;

        @UaVariable(access = UaAccess.READ_WRITE, name = "RotorSpeed", displayName = "Speed (rpm)",
                description = "rotations", minimumSamplingInterval = 100, signalsChanges = true)
        public double getSpeed() {
            return speed;
        }

        public void setSpeed(double speed) {
            this.speed = speed;
        }

        @UaVariable
        public boolean isRunning() {
            return running;
        }

        public void setRunning(boolean running) {
            this.running = running;
        }

        @UaVariable
        public String getURL() {
            return url;
        }

        @UaVariable
        public int count() {
            return 3;
        }
    }

    @Test
    void fields_then_methods_by_name_and_only_read_write_ones_are_writable() {
        UaObjectModel model = introspect(new Access());
        assertThat(model.browseName()).isEqualTo("Pump");
        assertThat(model.displayName()).isEqualTo("Pump 1");
        assertThat(model.description()).isEqualTo("the pump");
        assertThat(model.variables()).extracting(UaVariableModel::browseName, UaVariableModel::property,
                UaVariableModel::writable).containsExactly(
                        org.assertj.core.groups.Tuple.tuple("Setpoint", "setpoint", true),
                        org.assertj.core.groups.Tuple.tuple("Fixed", "fixed", false),
                        org.assertj.core.groups.Tuple.tuple("Count", "count", false),
                        org.assertj.core.groups.Tuple.tuple("RotorSpeed", "speed", true),
                        org.assertj.core.groups.Tuple.tuple("URL", "URL", false),
                        org.assertj.core.groups.Tuple.tuple("Running", "running", false));
        UaVariableModel speed = variable(model, "RotorSpeed");
        assertThat(speed.displayName()).isEqualTo("Speed (rpm)");
        assertThat(speed.description()).isEqualTo("rotations");
        assertThat(speed.minimumSamplingInterval()).isEqualTo(100);
        assertThat(speed.signalsChanges()).isTrue();
        assertThat(variable(model, "Setpoint").displayName()).isEqualTo("Setpoint");
        assertThat(variable(model, "Setpoint").description()).isNull();
    }

    @Test
    void the_handles_read_and_write_the_bean() throws Throwable {
        Access bean = new Access();
        UaObjectModel model = introspect(bean);
        variable(model, "RotorSpeed").setter().invokeExact((Object) 12.5);
        variable(model, "Setpoint").setter().invokeExact((Object) 3.0);
        assertThat(bean.speed).isEqualTo(12.5);
        assertThat(bean.setpoint).isEqualTo(3.0);
        assertThat((Object) variable(model, "RotorSpeed").getter().invokeExact()).isEqualTo(12.5);
        assertThat((Object) variable(model, "Count").getter().invokeExact()).isEqualTo(3);
    }

    static class Motor {
        @UaVariable double temperature = 40;
        @UaObject(name = "Cooler", description = "cooling") final Fan fan = new Fan();
    }

    static class Fan {
        @UaVariable int rpm = 900;
    }

    @OpcUaNamespace("urn:test:nested")
    static class Line {
        @UaObject(displayName = "Main motor") final Motor motor = new Motor();
        private final Motor spare = new Motor();

        @UaObject
        public Motor getSpare() {
            return spare;
        }
    }

    @Test
    void ua_object_members_become_nested_objects_to_any_depth() {
        Line line = new Line();
        UaObjectModel model = introspect(line);
        assertThat(model.browseName()).isEqualTo("Line");
        assertThat(model.objects()).extracting(UaObjectModel::browseName).containsExactly("Motor", "Spare");
        UaObjectModel motor = model.objects().get(0);
        assertThat(motor.displayName()).isEqualTo("Main motor");
        assertThat(motor.instance()).isSameAs(line.motor);
        assertThat(motor.javaPath()).isEqualTo("motor");
        assertThat(motor.variables()).extracting(UaVariableModel::browseName).containsExactly("Temperature");
        UaObjectModel fan = motor.objects().get(0);
        assertThat(fan.browseName()).isEqualTo("Cooler");
        assertThat(fan.description()).isEqualTo("cooling");
        assertThat(fan.javaPath()).isEqualTo("motor.fan");
        assertThat(fan.variables()).extracting(UaVariableModel::builtinType).containsExactly(BuiltinType.Int32);
        assertThat(model.objects().get(1).instance()).isSameAs(line.spare);
    }

    record Totals(long bottles, String message, List<Double> samples) {
    }

    @OpcUaNamespace("urn:test:methods")
    static class Methods {
        @UaMethod(description = "starts the line")
        public void start() {
        }

        @UaMethod(name = "AddBottles")
        public Totals add(@UaArgument(name = "Count", description = "bottles to add") int count, String reason) {
            return new Totals(count, reason, List.of());
        }

        @UaMethod
        public double[] scale(double[] values, List<Instant> when, Mode mode) {
            return values;
        }
    }

    @Test
    void method_arguments_come_from_parameters_and_outputs_from_the_return_type() {
        UaObjectModel model = introspect(new Methods());
        assertThat(model.methods()).extracting(UaMethodModel::browseName).containsExactly("AddBottles", "Scale", "Start");
        UaMethodModel start = method(model, "Start");
        assertThat(start.description()).isEqualTo("starts the line");
        assertThat(start.inputs()).isEmpty();
        assertThat(start.outputs()).isEmpty();

        UaMethodModel add = method(model, "AddBottles");
        assertThat(add.inputs()).extracting(a -> a.toArgument()).containsExactly(
                new Argument("Count", BuiltinType.Int32.dataTypeId(), -1, null, LocalizedText.of("bottles to add")),
                new Argument("reason", BuiltinType.String.dataTypeId(), -1, null, null));
        assertThat(add.outputs()).extracting(a -> a.toArgument()).containsExactly(
                new Argument("bottles", BuiltinType.Int64.dataTypeId(), -1, null, null),
                new Argument("message", BuiltinType.String.dataTypeId(), -1, null, null),
                new Argument("samples", BuiltinType.Double.dataTypeId(), 1, new long[] {0}, null));

        UaMethodModel scale = method(model, "Scale");
        assertThat(scale.inputs()).extracting(UaArgumentModel::name, a -> a.converter().builtinType(),
                a -> a.converter().valueRank()).containsExactly(
                        org.assertj.core.groups.Tuple.tuple("values", BuiltinType.Double, 1),
                        org.assertj.core.groups.Tuple.tuple("when", BuiltinType.DateTime, 1),
                        org.assertj.core.groups.Tuple.tuple("mode", BuiltinType.Int32, -1));
        assertThat(scale.outputs()).extracting(UaArgumentModel::name, a -> a.converter().builtinType())
                .containsExactly(org.assertj.core.groups.Tuple.tuple("result", BuiltinType.Double));
    }

    @Test
    void the_method_handle_calls_the_bean_with_an_argument_array() throws Throwable {
        UaMethodModel add = method(introspect(new Methods()), "AddBottles");
        Object result = (Object) add.invoker().invokeExact(new Object[] {5, "test"});
        assertThat(result).isEqualTo(new Totals(5, "test", List.of()));
        assertThat((Object) add.outputReaders().get(1).invokeExact(result)).isEqualTo("test");
    }

    // ---- errors ---------------------------------------------------------------------------------

    @OpcUaNamespace("urn:test:errors")
    static class UnsupportedType {
        @UaVariable Map<String, Integer> table;
    }

    @Test
    void an_unsupported_type_names_the_bean_the_member_the_type_and_the_supported_ones() {
        assertThatThrownBy(() -> introspect(new UnsupportedType()))
                .isInstanceOf(OpcUaAnnotationException.class)
                .hasMessage("bean 'errors' (" + UnsupportedType.class.getName() + ") member table: type "
                        + "java.util.Map<java.lang.String, java.lang.Integer> is not supported; supported are "
                        + UaTypeMapping.SUPPORTED);
    }

    @OpcUaNamespace("urn:test:errors")
    static class CharField {
        @UaVariable char letter;
    }

    @OpcUaNamespace("urn:test:errors")
    static class Matrix {
        @UaVariable double[][] matrix;
    }

    @OpcUaNamespace("urn:test:errors")
    static class RawList {
        @SuppressWarnings("rawtypes")
        @UaVariable List values;
    }

    @OpcUaNamespace("urn:test:errors")
    static class WrongOverride {
        @UaVariable(dataType = BuiltinType.UInt32) int count;
    }

    @Test
    void types_without_a_mapping_are_refused_with_the_reason() {
        assertThatThrownBy(() -> introspect(new CharField())).hasMessageContaining("member letter: type char is not "
                + "supported; supported are boolean, byte, short, int, long");
        assertThatThrownBy(() -> introspect(new Matrix())).hasMessageContaining("member matrix: type double[][] has "
                + "more than one dimension; supported are ");
        assertThatThrownBy(() -> introspect(new RawList())).hasMessageContaining("member values: type java.util.List "
                + "needs an element type of its own, e.g. List<Double>");
        assertThatThrownBy(() -> introspect(new WrongOverride())).hasMessageEndingWith("member count: dataType UInt32 "
                + "does not fit the Java type int; allowed are Int32, UInt16");
    }

    @OpcUaNamespace("urn:test:errors")
    static class FinalWritable {
        @UaVariable(access = UaAccess.READ_WRITE) final int count = 1;
    }

    @OpcUaNamespace("urn:test:errors")
    static class GetterWithoutSetter {
        @UaVariable(access = UaAccess.READ_WRITE)
        public double getSpeed() {
            return 1;
        }
    }

    @Test
    void read_write_needs_a_non_final_field_or_a_setter() {
        assertThatThrownBy(() -> introspect(new FinalWritable())).hasMessage("bean 'errors' ("
                + FinalWritable.class.getName() + ") member count: access READ_WRITE needs a field that is not final; "
                + "remove final or use access = READ");
        assertThatThrownBy(() -> introspect(new GetterWithoutSetter())).hasMessage("bean 'errors' ("
                + GetterWithoutSetter.class.getName() + ") member speed (getSpeed()): access READ_WRITE needs a setter "
                + "setSpeed(double); add it or use access = READ");
    }

    @OpcUaNamespace("urn:test:errors")
    static class NotAGetter {
        @UaVariable
        public void setSpeed(double speed) {
        }
    }

    @OpcUaNamespace("urn:test:errors")
    static class StaticMember {
        @UaVariable static int count;
    }

    @OpcUaNamespace("urn:test:errors")
    static class TwoAnnotations {
        @UaVariable @UaObject Motor motor = new Motor();
    }

    @Test
    void members_that_cannot_be_nodes_are_refused() {
        assertThatThrownBy(() -> introspect(new NotAGetter())).hasMessageEndingWith("member setSpeed (setSpeed()): is "
                + "not a getter; a @UaVariable or @UaObject method takes no parameters and returns the value");
        assertThatThrownBy(() -> introspect(new StaticMember())).hasMessageEndingWith("member count: is static; only "
                + "instance members become nodes");
        assertThatThrownBy(() -> introspect(new TwoAnnotations())).hasMessageEndingWith("member motor: carries more "
                + "than one of @UaVariable, @UaObject and @UaMethod; a member is one node");
    }

    @OpcUaNamespace("urn:test:errors")
    static class DuplicateNames {
        @UaVariable(name = "Speed") double speed;
        @UaVariable(name = "Speed") double otherSpeed;
    }

    @OpcUaNamespace("urn:test:errors")
    static class DefaultNameTaken {
        @UaVariable double speed;
        @UaVariable(name = "Speed") double otherSpeed;
    }

    @OpcUaNamespace("urn:test:errors")
    static class DottedName {
        @UaVariable(name = "Line.Speed") double speed;
    }

    @OpcUaNamespace(value = "urn:test:errors", name = "a.b")
    static class DottedObjectName {
    }

    @OpcUaNamespace("urn:test:errors")
    static class NegativeSampling {
        @UaVariable(minimumSamplingInterval = -1) double speed;
    }

    @Test
    void names_must_be_unique_among_siblings_and_free_of_dots() {
        String bean = "bean 'errors' (" + DuplicateNames.class.getName() + ")";
        assertThatThrownBy(() -> introspect(new DuplicateNames())).hasMessage(bean + " member otherSpeed: name "
                + "'Speed' is taken by " + bean + " member speed; the nodes of one object need different names");
        String defaulted = "bean 'errors' (" + DefaultNameTaken.class.getName() + ")";
        assertThatThrownBy(() -> introspect(new DefaultNameTaken())).as("speed's default name is Speed")
                .hasMessage(defaulted + " member otherSpeed: name 'Speed' is taken by " + defaulted
                        + " member speed; the nodes of one object need different names");
        assertThatThrownBy(() -> introspect(new DottedName())).hasMessageEndingWith("member speed: name 'Line.Speed' "
                + "is not allowed; a name is not blank and has no '.' (dots separate the names in NodeIds)");
        assertThatThrownBy(() -> introspect(new DottedObjectName())).hasMessageEndingWith(
                DottedObjectName.class.getName() + ") @OpcUaNamespace(name): name 'a.b' is not allowed; a name is not "
                        + "blank and has no '.' (dots separate the names in NodeIds)");
        assertThatThrownBy(() -> introspect(new NegativeSampling())).hasMessageEndingWith("member speed: "
                + "minimumSamplingInterval -1.0 is not allowed; it is 0 or more milliseconds");
    }

    @OpcUaNamespace("urn:test:errors")
    static class NullObject {
        @UaObject Motor motor;
    }

    static class Node {
        @UaObject Node next;
    }

    @OpcUaNamespace("urn:test:errors")
    static class Cycle {
        @UaObject final Node first = new Node();

        Cycle() {
            first.next = first;
        }
    }

    @Test
    void nested_objects_must_be_present_and_form_a_tree() {
        assertThatThrownBy(() -> introspect(new NullObject())).hasMessageEndingWith("member motor: @UaObject member "
                + "holds null; it must hold an object when the node manager is built");
        assertThatThrownBy(() -> introspect(new Cycle())).hasMessageEndingWith("member first.next: @UaObject member "
                + "holds an object that contains it (a cycle); objects must form a tree");
    }

    @OpcUaNamespace("urn:test:errors")
    static class BadParameter {
        @UaMethod
        public void apply(Map<String, String> options) {
        }
    }

    record WithObject(Object anything) {
    }

    @OpcUaNamespace("urn:test:errors")
    static class BadResult {
        @UaMethod
        public WithObject make() {
            return null;
        }
    }

    @Test
    void method_arguments_and_results_need_supported_types() {
        assertThatThrownBy(() -> introspect(new BadParameter())).hasMessageContaining("member apply (apply()) "
                + "parameter options: type java.util.Map<java.lang.String, java.lang.String> is not supported");
        assertThatThrownBy(() -> introspect(new BadResult())).hasMessageContaining("member make (make()) result "
                + "component anything: type java.lang.Object is not supported");
    }

    static class NotAnnotated {
    }

    @OpcUaNamespace(" ")
    static class BlankNamespace {
    }

    @OpcUaNamespace(value = "urn:test:shared", name = "Same")
    static class First {
    }

    @OpcUaNamespace(value = "urn:test:shared", name = "Same")
    static class Second {
    }

    @Test
    void beans_need_a_namespace_uri_and_distinct_object_names() {
        assertThatThrownBy(() -> OpcUaAnnotatedNodeManagers.of(Map.of("plain", new NotAnnotated())))
                .hasMessage("bean 'plain' (" + NotAnnotated.class.getName() + ") is not annotated @OpcUaNamespace");
        assertThatThrownBy(() -> OpcUaAnnotatedNodeManagers.of(Map.of("blank", new BlankNamespace())))
                .hasMessage("bean 'blank' (" + BlankNamespace.class.getName() + "): @OpcUaNamespace value ' ' is not "
                        + "allowed; it is the namespace URI, e.g. urn:example:plant");
        Map<String, Object> beans = new java.util.LinkedHashMap<>();
        beans.put("first", new First());
        beans.put("second", new Second());
        assertThatThrownBy(() -> OpcUaAnnotatedNodeManagers.of(beans)).hasMessage("bean 'second': object name 'Same' "
                + "in namespace urn:test:shared is taken by bean 'first'; set @OpcUaNamespace(name = ...) to tell "
                + "them apart");
    }

    @Test
    void beans_of_one_namespace_share_a_node_manager() {
        Map<String, Object> beans = new java.util.LinkedHashMap<>();
        beans.put("access", new Access());
        beans.put("methods", new Methods());
        beans.put("line", new Line());
        OpcUaAnnotatedNodeManagers managers = OpcUaAnnotatedNodeManagers.of(beans);
        assertThat(managers.nodeManagers()).extracting(OpcUaAnnotatedNodeManager::namespaceUri)
                .containsExactly("urn:test:access", "urn:test:methods", "urn:test:nested");
        assertThatThrownBy(() -> managers.valueChanged(new Object(), "speed"))
                .hasMessage("value change of 'speed' of java.lang.Object: the object is neither an @OpcUaNamespace "
                        + "bean nor held by a @UaObject member of one");
        assertThatThrownBy(() -> managers.valueChanged(new UaValueChangedEvent(beans.get("access"), "sped")))
                .hasMessage("value change of 'sped' of " + Access.class.getName() + ": it has no @UaVariable of that "
                        + "name; its variables are [URL, count, fixed, running, setpoint, speed]");
    }

    @OpcUaNamespace("urn:test:callers")
    static class Callers {
        @UaVariable(access = UaAccess.READ_WRITE, writeRoles = {"operator", "Engineer"})
        volatile double setpoint;

        @UaMethod(callRoles = "supervisor")
        public String greet(String greeting, dev.opcua.stack.server.session.Identity caller) {
            return greeting + " " + caller.userName();
        }
    }

    @OpcUaNamespace("urn:test:two-callers")
    static class TwoCallers {
        @UaMethod
        public void both(dev.opcua.stack.server.session.Identity a, dev.opcua.stack.server.session.Identity b) {
        }
    }

    @OpcUaNamespace("urn:test:bad-role")
    static class BadRole {
        @UaMethod(callRoles = "boss")
        public void start() {
        }
    }

    @Test
    void an_identity_parameter_is_no_input_argument_and_role_names_become_well_known_roles() {
        UaObjectModel model = introspect(new Callers());
        UaMethodModel greet = model.methods().get(0);
        assertThat(greet.inputs()).extracting(UaArgumentModel::name).containsExactly("greeting");
        assertThat(greet.callerSlot()).isEqualTo(1);
        assertThat(greet.parameterCount()).isEqualTo(2);
        assertThat(greet.callRoles()).containsExactly(dev.opcua.stack.server.roles.WellKnownRole.SUPERVISOR);
        assertThat(model.variables().get(0).writeRoles()).containsExactly(
                dev.opcua.stack.server.roles.WellKnownRole.OPERATOR, dev.opcua.stack.server.roles.WellKnownRole.ENGINEER);
        assertThat(model.variables().get(0).readRoles()).isEmpty();
    }

    @Test
    void two_identity_parameters_or_an_unknown_role_are_refused_naming_the_member() {
        assertThatThrownBy(() -> introspect(new TwoCallers())).isInstanceOf(OpcUaAnnotationException.class)
                .hasMessageContaining("both").hasMessageContaining("more than one Identity parameter");
        assertThatThrownBy(() -> introspect(new BadRole())).isInstanceOf(OpcUaAnnotationException.class)
                .hasMessageContaining("callRoles").hasMessageContaining("'boss'").hasMessageContaining("Operator");
    }

    private static UaObjectModel introspect(Object bean) {
        String name = bean.getClass().getAnnotation(OpcUaNamespace.class).value().substring("urn:test:".length());
        return UaBeanIntrospector.introspect(name, bean);
    }

    private static Map<String, BuiltinType> typesByName(UaObjectModel model) {
        return model.variables().stream().collect(Collectors.toMap(UaVariableModel::browseName,
                UaVariableModel::builtinType, (a, b) -> a, java.util.LinkedHashMap::new));
    }

    private static UaVariableModel variable(UaObjectModel model, String name) {
        return find(model.variables(), UaVariableModel::browseName, name);
    }

    private static UaMethodModel method(UaObjectModel model, String name) {
        return find(model.methods(), UaMethodModel::browseName, name);
    }

    private static <T> T find(List<T> items, Function<T, String> name, String wanted) {
        return new ArrayList<>(items).stream().filter(i -> name.apply(i).equals(wanted)).findFirst().orElseThrow();
    }
}
