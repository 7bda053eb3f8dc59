package dev.opcua.stack.core.encoding.generic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.StructureType;
import dev.opcua.stack.core.types.structured.EUInformation;
import dev.opcua.stack.core.types.structured.StructureDefinition;
import dev.opcua.stack.core.types.structured.StructureField;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Structures encoded from their layout (Part 6, 5.2.6 to 5.2.8): exact bytes, round trips, nesting, refusals. */
class GenericStructureCodecTest {

    private static final NodeId LIMITS_TYPE = NodeId.numeric(2, 3002);
    private static final NodeId VALVE_TYPE = NodeId.numeric(2, 3003);
    private static final NodeId SETPOINT_TYPE = NodeId.numeric(2, 3004);

    private static final StructureLayout LIMITS = new StructureLayout(LIMITS_TYPE, NodeId.numeric(2, 5002),
            StructureType.Structure, "Limits", List.of(builtin("Low", BuiltinType.Double, false, false),
                    builtin("High", BuiltinType.Double, false, false)));
    private static final StructureLayout VALVE = new StructureLayout(VALVE_TYPE, NodeId.numeric(2, 5003),
            StructureType.StructureWithOptionalFields, "ValveData", List.of(
                    builtin("Name", BuiltinType.String, false, false),
                    new LayoutField("State", new FieldEncoding.Enumeration(NodeId.numeric(2, 3001)), false, false),
                    new LayoutField("Limits", new FieldEncoding.Structured(LIMITS_TYPE, LIMITS.binaryEncodingId()),
                            false, false),
                    builtin("Readings", BuiltinType.Double, true, false),
                    builtin("Note", BuiltinType.String, false, true),
                    new LayoutField("History", new FieldEncoding.Structured(LIMITS_TYPE, LIMITS.binaryEncodingId()),
                            true, true),
                    new LayoutField("Unit", new FieldEncoding.Structured(EUInformation.TYPE_ID,
                            EUInformation.BINARY_ENCODING_ID), false, true)));
    private static final StructureLayout SETPOINT = new StructureLayout(SETPOINT_TYPE, NodeId.numeric(2, 5004),
            StructureType.Union, "Setpoint", List.of(builtin("Flow", BuiltinType.Double, false, false),
                    builtin("Position", BuiltinType.Int32, false, false)));

    private static final CodecRegistry REGISTRY = CodecRegistry.standard().toBuilder()
            .add(new GenericStructureCodec(LIMITS)).add(new GenericStructureCodec(VALVE))
            .add(new GenericStructureCodec(SETPOINT)).build();

    private static LayoutField builtin(String name, BuiltinType type, boolean array, boolean optional) {
        return new LayoutField(name, new FieldEncoding.Builtin(type), array, optional);
    }

    private static GenericStructure limits(double low, double high) {
        return GenericStructure.builder(LIMITS).set("Low", low).set("High", high).build();
    }

    @Test
    void a_plain_structure_is_its_fields_in_order() {
        assertThat(hex(limits(0.5, 9.5))).isEqualTo("000000000000e03f" + "0000000000002340");
    }

    @Test
    void optional_fields_follow_an_encoding_mask_with_one_bit_per_optional_field() {
        GenericStructure valve = GenericStructure.builder(VALVE).set("Name", "V1").set("State", 1)
                .set("Limits", limits(0.5, 9.5)).set("Readings", new double[] {1.5})
                .set("History", new UaStructure[] {limits(1, 2)}).build();
        // mask 0x02: Note (bit 0) absent, History (bit 1) present, Unit (bit 2) absent
        assertThat(hex(valve)).isEqualTo("02000000" + "020000005631" + "01000000"
                + "000000000000e03f0000000000002340" + "01000000000000000000f83f"
                + "01000000" + "000000000000f03f0000000000000040");
        assertThat(roundTrip(valve)).isEqualTo(valve);
    }

    @Test
    void a_union_is_its_switch_field_and_the_chosen_field() {
        GenericStructure position = GenericStructure.builder(SETPOINT).set("Flow", 3.0).set("Position", 42).build();
        assertThat(position.unionIndex()).isEqualTo(1);
        assertThat(position.get("Flow")).isNull();
        assertThat(hex(position)).isEqualTo("02000000" + "2a000000");
        GenericStructure none = GenericStructure.builder(SETPOINT).build();
        assertThat(hex(none)).isEqualTo("00000000");
        assertThat(roundTrip(position)).isEqualTo(position);
        assertThat(roundTrip(none).unionIndex()).isEqualTo(-1);
    }

    @Test
    void nested_generated_structures_use_their_registered_codec_and_survive_an_extension_object() {
        EUInformation unit = new EUInformation("http://www.opcfoundation.org/UA/units/un/cefact", 4408652,
                LocalizedText.of("°C"), LocalizedText.of("degree Celsius"));
        GenericStructure valve = GenericStructure.builder(VALVE).set("Name", "V2").set("Limits", limits(0, 1))
                .set("Note", "n").set("Unit", unit).build();
        ByteBuf buf = Unpooled.buffer();
        try {
            new UaEncoder(REGISTRY, buf).writeVariant("v", Variant.of(ExtensionObject.of(valve)));
            Variant decoded = new UaDecoder(REGISTRY, EncodingLimits.DEFAULT, buf).readVariant("v");
            GenericStructure back = ((ExtensionObject) decoded.value()).decoded(GenericStructure.class);
            assertThat(back).isEqualTo(valve);
            assertThat(back.get("Unit")).isEqualTo(unit);
            assertThat(back.get("State")).isEqualTo(0); // a mandatory scalar left unset has its default
            assertThat(back.get("Readings")).isNull(); // a null array stays null
        } finally {
            buf.release();
        }
    }

    @Test
    void a_layout_is_made_from_a_structure_definition_and_refuses_what_it_cannot_encode() {
        StructureDefinition definition = new StructureDefinition(NodeId.numeric(2, 5002), NodeId.ns0(NodeIds.Structure),
                StructureType.Structure, new StructureField[] {
                    new StructureField("Low", null, NodeId.ns0(NodeIds.Double), -1, null, 0, false),
                    new StructureField("High", null, NodeId.ns0(NodeIds.Double), -1, null, 0, false)});
        StructureLayout layout = StructureLayout.of(LIMITS_TYPE, "Limits", definition,
                id -> new FieldEncoding.Builtin(BuiltinType.Double));
        assertThat(layout).isEqualTo(LIMITS);

        StructureDefinition matrix = new StructureDefinition(NodeId.numeric(2, 5002), NodeId.ns0(NodeIds.Structure),
                StructureType.Structure, new StructureField[] {
                    new StructureField("Grid", null, NodeId.ns0(NodeIds.Double), 2, null, 0, false)});
        assertThatThrownBy(() -> StructureLayout.of(LIMITS_TYPE, "Limits", matrix,
                id -> new FieldEncoding.Builtin(BuiltinType.Double)))
                .hasMessageContaining("field Grid has ValueRank 2");
        assertThatThrownBy(() -> new StructureLayout(LIMITS_TYPE, NodeId.numeric(2, 1),
                StructureType.StructureWithSubtypedValues, "X", List.of()))
                .hasMessageContaining("only Structure, StructureWithOptionalFields and Union");
        assertThatThrownBy(() -> GenericStructure.builder(LIMITS).set("Low", "text"))
                .hasMessage("Limits.Low takes Double, not String");
    }

    @Test
    void a_switch_field_beyond_the_union_is_malformed() {
        ByteBuf buf = Unpooled.wrappedBuffer(new byte[] {3, 0, 0, 0});
        try {
            assertThatThrownBy(() -> new GenericStructureCodec(SETPOINT)
                    .decode(new UaDecoder(REGISTRY, EncodingLimits.DEFAULT, buf)))
                    .isInstanceOf(UaEncodingException.class).hasMessageContaining("SwitchField 3 names no field");
        } finally {
            buf.release();
        }
    }

    private static String hex(GenericStructure value) {
        ByteBuf buf = Unpooled.buffer();
        try {
            new GenericStructureCodec(value.layout()).encode(new UaEncoder(REGISTRY, buf), value);
            return ByteBufUtil.hexDump(buf);
        } finally {
            buf.release();
        }
    }

    private static GenericStructure roundTrip(GenericStructure value) {
        ByteBuf buf = Unpooled.buffer();
        try {
            GenericStructureCodec codec = new GenericStructureCodec(value.layout());
            codec.encode(new UaEncoder(REGISTRY, buf), value);
            GenericStructure back = codec.decode(new UaDecoder(REGISTRY, EncodingLimits.DEFAULT, buf));
            assertThat(buf.isReadable()).isFalse();
            return back;
        } finally {
            buf.release();
        }
    }
}
