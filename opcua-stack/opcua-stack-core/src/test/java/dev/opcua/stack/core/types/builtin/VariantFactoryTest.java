package dev.opcua.stack.core.types.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.opcua.stack.core.types.structured.AnonymousIdentityToken;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Variant's factories: range and shape checks (Part 6, 5.2.2.16) and type inference. */
class VariantFactoryTest {

    @Test
    void unsigned_factories_refuse_values_outside_their_range() {
        assertThatIllegalArgumentException().isThrownBy(() -> Variant.ofUInt32(-1)).withMessageContaining("-1");
        assertThatIllegalArgumentException().isThrownBy(() -> Variant.ofUInt32(4_294_967_296L));
        assertThatIllegalArgumentException().isThrownBy(() -> Variant.ofByte(256)).withMessageContaining("256");
        assertThatIllegalArgumentException().isThrownBy(() -> Variant.ofByte(-1));
        assertThatIllegalArgumentException().isThrownBy(() -> Variant.ofUInt16(65_536));
        assertThatIllegalArgumentException().isThrownBy(() -> Variant.ofUInt16(-1));
        assertThatIllegalArgumentException().isThrownBy(() -> Variant.ofScalar(BuiltinType.Byte, (short) 256));
        assertThatIllegalArgumentException().isThrownBy(() -> Variant.ofScalar(BuiltinType.UInt32, -5L));
    }

    @Test
    void unsigned_factories_accept_their_whole_range() {
        assertThat(Variant.ofUInt32(4_294_967_295L).value()).isEqualTo(4_294_967_295L);
        assertThat(Variant.ofUInt32(0).type()).isEqualTo(BuiltinType.UInt32);
        assertThat(Variant.ofByte(255).value()).isEqualTo((short) 255);
        assertThat(Variant.ofUInt16(65_535).value()).isEqualTo(65_535);
    }

    @Test
    void unsigned_arrays_refuse_elements_outside_their_range() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Variant.ofArray(BuiltinType.Byte, new short[] {1, 300}));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Variant.ofArray(BuiltinType.UInt16, new int[] {-1}));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Variant.ofArray(BuiltinType.UInt32, new long[] {1L << 32}));
    }

    @Test
    void array_of_the_wrong_java_class_is_refused() {
        assertThatIllegalArgumentException().isThrownBy(() -> Variant.ofArray(BuiltinType.Int32, new long[] {1}))
                .withMessageContaining("int[]");
        assertThatIllegalArgumentException().isThrownBy(() -> Variant.ofArray(BuiltinType.Null, new Object[0]));
        assertThatIllegalArgumentException().isThrownBy(() -> Variant.ofScalar(BuiltinType.Int32, "1"));
    }

    @Test
    void matrix_whose_dimensions_do_not_match_the_array_is_refused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Variant.ofMatrix(BuiltinType.Int32, new int[5], new int[] {2, 3}))
                .withMessageContaining("[2, 3]");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Variant.ofMatrix(BuiltinType.Int32, new int[2], new int[] {2}));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Variant.ofMatrix(BuiltinType.Int32, new int[2], new int[] {-1, -2}));
        assertThatIllegalArgumentException().isThrownBy(() -> Variant.ofMatrix(BuiltinType.Int32, new int[0],
                new int[] {65_536, 65_536, 65_536}));
    }

    @Test
    void matrix_keeps_its_dimensions() {
        Variant matrix = Variant.ofMatrix(BuiltinType.Double, new double[6], new int[] {3, 2});
        assertThat(matrix.isArray()).isTrue();
        assertThat(matrix.isMatrix()).isTrue();
        assertThat(matrix.arrayDimensions()).containsExactly(3, 2);
        assertThat(Variant.ofArray(BuiltinType.Double, new double[4]).arrayDimensions()).containsExactly(4);
        assertThat(Variant.ofInt32(1).arrayDimensions()).isNull();
    }

    @Test
    void scalar_variant_inside_a_variant_is_refused() {
        // Part 6, 5.2.2.16: "The value shall not be a Variant but it could be an array of Variants."
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Variant.ofScalar(BuiltinType.Variant, Variant.ofInt32(1)));
        assertThatIllegalArgumentException().isThrownBy(() -> Variant.of(Variant.ofInt32(1)));
        assertThat(Variant.ofArray(BuiltinType.Variant, new Variant[] {Variant.ofInt32(1)}).isArray()).isTrue();
    }

    static Stream<Arguments> inferredTypes() {
        return Stream.of(
                Arguments.of(true, BuiltinType.Boolean),
                Arguments.of((byte) 1, BuiltinType.SByte),
                Arguments.of((short) 1, BuiltinType.Int16),
                Arguments.of(1, BuiltinType.Int32),
                Arguments.of(1L, BuiltinType.Int64),
                Arguments.of(1.5f, BuiltinType.Float),
                Arguments.of(1.5, BuiltinType.Double),
                Arguments.of("text", BuiltinType.String),
                Arguments.of(DateTime.ofEpochMillis(0), BuiltinType.DateTime),
                Arguments.of(new UUID(1, 2), BuiltinType.Guid),
                Arguments.of(ByteString.of(new byte[] {1}), BuiltinType.ByteString),
                Arguments.of(XmlElement.of("<a/>"), BuiltinType.XmlElement),
                Arguments.of(NodeId.ns0(85), BuiltinType.NodeId),
                Arguments.of(ExpandedNodeId.of(NodeId.ns0(85)), BuiltinType.ExpandedNodeId),
                Arguments.of(StatusCode.BAD, BuiltinType.StatusCode),
                Arguments.of(QualifiedName.of(1, "q"), BuiltinType.QualifiedName),
                Arguments.of(LocalizedText.of("t"), BuiltinType.LocalizedText),
                Arguments.of(ExtensionObject.NULL, BuiltinType.ExtensionObject),
                Arguments.of(DataValue.NULL, BuiltinType.DataValue),
                Arguments.of(DiagnosticInfo.NULL, BuiltinType.DiagnosticInfo));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("inferredTypes")
    void of_infers_the_builtin_type_from_the_java_class(Object value, BuiltinType expected) {
        Variant variant = Variant.of(value);
        assertThat(variant.type()).isEqualTo(expected);
        assertThat(variant.value()).isEqualTo(value);
        assertThat(variant.isArray()).isFalse();
    }

    @Test
    void of_wraps_a_structure_in_an_extension_object() {
        AnonymousIdentityToken token = new AnonymousIdentityToken("anon");
        Variant variant = Variant.of(token);
        assertThat(variant.type()).isEqualTo(BuiltinType.ExtensionObject);
        assertThat(((ExtensionObject) variant.value()).decoded(AnonymousIdentityToken.class)).isEqualTo(token);
    }

    @Test
    void of_refuses_classes_without_a_builtin_type() {
        assertThatIllegalArgumentException().isThrownBy(() -> Variant.of(new Object()))
                .withMessageContaining("java.lang.Object");
        assertThatIllegalArgumentException().isThrownBy(() -> Variant.of(new int[] {1}));
        assertThatIllegalArgumentException().isThrownBy(() -> Variant.of('c'));
    }

    @Test
    void null_gives_the_null_variant() {
        assertThat(Variant.of(null)).isSameAs(Variant.NULL);
        assertThat(Variant.ofString(null)).isSameAs(Variant.NULL);
        assertThat(Variant.ofScalar(BuiltinType.Int32, null)).isSameAs(Variant.NULL);
        assertThat(Variant.NULL.isNull()).isTrue();
    }

    @Test
    void equal_arrays_make_equal_variants() {
        Variant a = Variant.ofArray(BuiltinType.String, new String[] {"a", "b"});
        Variant b = Variant.ofArray(BuiltinType.String, new String[] {"a", "b"});
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(Variant.ofArray(BuiltinType.UInt32, new long[] {1}))
                .isNotEqualTo(Variant.ofArray(BuiltinType.Int64, new long[] {1}));
        assertThat(Variant.ofMatrix(BuiltinType.Int32, new int[4], new int[] {2, 2}))
                .isNotEqualTo(Variant.ofArray(BuiltinType.Int32, new int[4]));
    }
}
