package dev.opcua.stack.core.encoding.json;

import static dev.opcua.stack.core.encoding.json.JsonTestSupport.canonical;
import static dev.opcua.stack.core.encoding.json.JsonTestSupport.decode;
import static dev.opcua.stack.core.encoding.json.JsonTestSupport.encode;
import static dev.opcua.stack.core.encoding.json.JsonTestSupport.member;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.generic.FieldEncoding;
import dev.opcua.stack.core.encoding.generic.GenericStructure;
import dev.opcua.stack.core.encoding.generic.GenericStructureCodec;
import dev.opcua.stack.core.encoding.generic.LayoutField;
import dev.opcua.stack.core.encoding.generic.StructureLayout;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.StructureType;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The examples of OPC 10000-6 1.05 (reference.opcfoundation.org, Part 6, 5.1.12 and 5.4), both ways: our
 * encoder writes the example's JSON (compared as parsed JSON, so whitespace does not count) and our decoder
 * reads it back to the value.
 */
class JsonSpecExamplesTest {

    private static final NodeId TYPE2 = NodeId.numeric(2, 6002);
    private static final StructureLayout TYPE2_LAYOUT = new StructureLayout(TYPE2, NodeId.numeric(2, 5002),
            StructureType.Structure, "Type2", List.of(builtin("A", BuiltinType.Int32, false, false),
                    builtin("B", BuiltinType.Int32, false, false), builtin("C", BuiltinType.String, false, false)));
    private static final StructureLayout TYPE1_LAYOUT = new StructureLayout(NodeId.numeric(2, 6001),
            NodeId.numeric(2, 5001), StructureType.Structure, "Type1", List.of(
                    builtin("X", BuiltinType.Int32, false, false),
                    new LayoutField("Y", new FieldEncoding.Structured(TYPE2, TYPE2_LAYOUT.binaryEncodingId()), true,
                            false),
                    builtin("Z", BuiltinType.Int32, false, false)));
    private static final StructureLayout TYPE_A_LAYOUT = new StructureLayout(NodeId.numeric(2, 6003),
            NodeId.numeric(2, 5003), StructureType.StructureWithOptionalFields, "TypeA", List.of(
                    builtin("X", BuiltinType.Int32, false, false), builtin("O1", BuiltinType.Int32, false, true),
                    builtin("Y", BuiltinType.SByte, false, false), builtin("O2", BuiltinType.Int32, false, true)));
    private static final StructureLayout UNION1_LAYOUT = new StructureLayout(NodeId.numeric(2, 6004),
            NodeId.numeric(2, 5004), StructureType.Union, "Union1", List.of(
                    builtin("A", BuiltinType.Int32, false, false), builtin("B", BuiltinType.Double, false, false),
                    builtin("C", BuiltinType.String, false, false)));
    private static final CodecRegistry REGISTRY = CodecRegistry.standard().toBuilder()
            .add(new GenericStructureCodec(TYPE2_LAYOUT)).add(new GenericStructureCodec(TYPE1_LAYOUT))
            .add(new GenericStructureCodec(TYPE_A_LAYOUT)).add(new GenericStructureCodec(UNION1_LAYOUT)).build();

    private static LayoutField builtin(String name, BuiltinType type, boolean array, boolean optional) {
        return new LayoutField(name, new FieldEncoding.Builtin(type), array, optional);
    }

    private static String write(JsonEncoding encoding, StructureLayout layout, GenericStructure value) {
        return encode(REGISTRY, encoding, e -> e.writeStruct(null, value, new GenericStructureCodec(layout)));
    }

    private static GenericStructure read(StructureLayout layout, String json) {
        return (GenericStructure) decode(REGISTRY, json, d -> d.decode(new GenericStructureCodec(layout)));
    }

    // 5.4.6 Structures: Type1 { X = 1234, Y = [ {1, 2, "Hello"}, {3, 4, null} ], Z = 5678 }
    private static final String STRUCTURE_COMPACT = """
            {
               "X":1234,
               "Y":[ { "A":1, "B":2, "C":"Hello" }, { "A":3, "B":4 } ],
               "Z":5678
            }""";
    private static final String STRUCTURE_VERBOSE = """
            {
               "X":1234,
               "Y":[ { "A":1, "B":2, "C":"Hello" }, { "A":3, "B":4, "C":null } ],
               "Z":5678
            }""";

    private static GenericStructure type1() {
        GenericStructure first = GenericStructure.builder(TYPE2_LAYOUT).set("A", 1).set("B", 2).set("C", "Hello").build();
        GenericStructure second = GenericStructure.builder(TYPE2_LAYOUT).set("A", 3).set("B", 4).build();
        return GenericStructure.builder(TYPE1_LAYOUT).set("X", 1234).set("Y", new UaStructure[] {first, second})
                .set("Z", 5678).build();
    }

    @Test
    void structure_example_of_5_4_6_in_both_forms() {
        assertThat(canonical(write(JsonEncoding.COMPACT, TYPE1_LAYOUT, type1()))).isEqualTo(canonical(STRUCTURE_COMPACT));
        assertThat(canonical(write(JsonEncoding.VERBOSE, TYPE1_LAYOUT, type1()))).isEqualTo(canonical(STRUCTURE_VERBOSE));
        assertThat(read(TYPE1_LAYOUT, STRUCTURE_COMPACT)).isEqualTo(type1());
        assertThat(read(TYPE1_LAYOUT, STRUCTURE_VERBOSE)).isEqualTo(type1());
    }

    // 5.4.8 Unions: Union1 with its second field B = 3.1415
    @Test
    void union_example_of_5_4_8_in_both_forms_and_the_1_04_form_is_read_too() {
        GenericStructure b = GenericStructure.builder(UNION1_LAYOUT).set("B", 3.1415).build();
        assertThat(canonical(write(JsonEncoding.COMPACT, UNION1_LAYOUT, b)))
                .isEqualTo(canonical("{ \"SwitchField\":2, \"B\":3.1415 }"));
        assertThat(canonical(write(JsonEncoding.VERBOSE, UNION1_LAYOUT, b))).isEqualTo(canonical("{ \"B\":3.1415 }"));
        assertThat(read(UNION1_LAYOUT, "{ \"SwitchField\":2, \"B\":3.1415 }")).isEqualTo(b);
        assertThat(read(UNION1_LAYOUT, "{ \"B\":3.1415 }")).isEqualTo(b);
        // Annex H.10 (the deprecated ReversibleEncoding): { "SwitchField":2, "Value":3.1415 }
        assertThat(read(UNION1_LAYOUT, "{ \"SwitchField\":2, \"Value\":3.1415 }")).isEqualTo(b);
        // "A Union with no field specified is encoded as an empty JSON object."
        GenericStructure none = GenericStructure.builder(UNION1_LAYOUT).build();
        assertThat(write(JsonEncoding.COMPACT, UNION1_LAYOUT, none)).isEqualTo("{}");
        assertThat(write(JsonEncoding.VERBOSE, UNION1_LAYOUT, none)).isEqualTo("{}");
        assertThat(read(UNION1_LAYOUT, "{}").unionIndex()).isEqualTo(-1);
    }

    // 5.4.7 (1.04 example, same TypeA): O1 not specified, O2 = 0: { "EncodingMask": 2, "X": 1, "Y": 2 }
    @Test
    void optional_fields_example_of_5_4_7() {
        GenericStructure a = GenericStructure.builder(TYPE_A_LAYOUT).set("X", 1).set("Y", (byte) 2).set("O2", 0).build();
        assertThat(canonical(write(JsonEncoding.COMPACT, TYPE_A_LAYOUT, a)))
                .isEqualTo(canonical("{ \"EncodingMask\": 2, \"X\": 1, \"Y\": 2 }"));
        // The verbose form has no mask: the present O2 is written with its default value, the absent O1 not at all.
        assertThat(canonical(write(JsonEncoding.VERBOSE, TYPE_A_LAYOUT, a)))
                .isEqualTo(canonical("{ \"X\": 1, \"Y\": 2, \"O2\": 0 }"));
        GenericStructure fromCompact = read(TYPE_A_LAYOUT, "{ \"EncodingMask\": 2, \"X\": 1, \"Y\": 2 }");
        assertThat(fromCompact).isEqualTo(a);
        assertThat(fromCompact.get("O1")).isNull();
        assertThat(fromCompact.get("O2")).isEqualTo(0);
        assertThat(read(TYPE_A_LAYOUT, "{ \"X\": 1, \"Y\": 2, \"O2\": 0 }")).isEqualTo(a);
    }

    // 5.1.12 / 5.3.1.10 NodeId examples: i=13, ns=10;s=Hello:World, g=09087e75-..., ns=1;b=M/RbKBsRVkePCePcx24oRA==
    @Test
    void nodeid_string_examples_of_5_1_12() {
        NodeId[] ids = {NodeId.ns0(13), NodeId.string(10, "Hello:World"),
            NodeId.guid(0, UUID.fromString("09087e75-8e5e-499b-954f-f2a9603db28a")),
            NodeId.opaque(1, ByteString.wrap(Base64.getDecoder().decode("M/RbKBsRVkePCePcx24oRA==")))};
        String[] texts = {"i=13", "ns=10;s=Hello:World", "g=09087e75-8e5e-499b-954f-f2a9603db28a",
            "ns=1;b=M/RbKBsRVkePCePcx24oRA=="};
        for (int i = 0; i < ids.length; i++) {
            NodeId id = ids[i];
            assertThat(encode(JsonEncoding.COMPACT, e -> e.writeNodeId(null, id))).isEqualTo("\"" + texts[i] + "\"");
            String text = texts[i];
            assertThat(decode("\"" + text + "\"", d -> d.readNodeId(null))).isEqualTo(id);
        }
        // 5.4.2.10: with a namespace table the nsu= form is used for namespaces other than 0, and read back.
        List<String> table = List.of("http://opcfoundation.org/UA/", "urn:one", "urn:two;x");
        JsonEncoder encoder = new JsonEncoder(REGISTRY, JsonEncoding.COMPACT, table);
        encoder.writeNodeId(null, NodeId.string(2, "Hello"));
        assertThat(encoder.toJson()).isEqualTo("\"nsu=urn:two%3Bx;s=Hello\"");
        JsonDecoder decoder = new JsonDecoder(REGISTRY, dev.opcua.stack.core.encoding.EncodingLimits.DEFAULT, table,
                encoder.toBytes(), 0, encoder.toBytes().length, 1 << 20);
        assertThat(decoder.readNodeId(null)).isEqualTo(NodeId.string(2, "Hello"));
        // 5.4.2.10 second abnormal state: an unknown URI gives a String NodeId of namespace 0 holding the text.
        assertThat(decode("\"nsu=urn:unknown;i=5\"", d -> d.readNodeId(null)))
                .isEqualTo(NodeId.string(0, "nsu=urn:unknown;i=5"));
    }

    // 5.4.2.12: 0x80AB0000 has the associated literal "BadInvalidArgument"; Symbol only in the verbose form.
    @Test
    void status_code_example_of_5_4_2_12() {
        StatusCode bad = StatusCode.of(StatusCodes.BadInvalidArgument);
        assertThat(bad.unsignedValue()).isEqualTo(0x80AB0000L);
        assertThat(member(JsonEncoding.COMPACT, e -> e.writeStatusCode("S", bad)))
                .isEqualTo("{\"S\":{\"Code\":2158690304}}");
        assertThat(member(JsonEncoding.VERBOSE, e -> e.writeStatusCode("S", bad)))
                .isEqualTo("{\"S\":{\"Code\":2158690304,\"Symbol\":\"BadInvalidArgument\"}}");
        assertThat(member(JsonEncoding.COMPACT, e -> e.writeStatusCode("S", StatusCode.GOOD))).isEqualTo("{}");
        assertThat(member(JsonEncoding.VERBOSE, e -> e.writeStatusCode("S", StatusCode.GOOD))).isEqualTo("{\"S\":{}}");
        assertThat(decode("{\"Code\":2158690304,\"Symbol\":\"BadInvalidArgument\"}", d -> d.readStatusCode(null)))
                .isEqualTo(bad);
    }

    // 5.4.2.3, 5.4.2.4, 5.4.2.6: Int64 as strings, special floats as strings, DateTime limits.
    @Test
    void number_and_date_time_rules_of_5_4_2() {
        assertThat(member(JsonEncoding.COMPACT, e -> {
            e.writeInt64("I", -9_007_199_254_740_993L);
            e.writeUInt64("U", -1L);
            e.writeDouble("N", Double.NaN);
            e.writeDouble("P", Double.POSITIVE_INFINITY);
            e.writeFloat("M", Float.NEGATIVE_INFINITY);
            e.writeDateTime("Min", DateTime.MIN_VALUE);
            e.writeDateTime("Max", DateTime.MAX_VALUE);
        })).isEqualTo("{\"I\":\"-9007199254740993\",\"U\":\"18446744073709551615\",\"N\":\"NaN\","
                + "\"P\":\"Infinity\",\"M\":\"-Infinity\",\"Max\":\"9999-12-31T23:59:59Z\"}");
        assertThat(member(JsonEncoding.VERBOSE, e -> e.writeDateTime("Min", DateTime.MIN_VALUE)))
                .isEqualTo("{\"Min\":\"0001-01-01T00:00:00Z\"}");
        assertThat(decode("\"0001-01-01T00:00:00Z\"", d -> d.readDateTime(null))).isEqualTo(DateTime.MIN_VALUE);
        assertThat(decode("\"9999-12-31T23:59:59Z\"", d -> d.readDateTime(null))).isEqualTo(DateTime.MAX_VALUE);
        assertThat(decode("\"-Infinity\"", d -> d.readFloat(null))).isEqualTo(Float.NEGATIVE_INFINITY);
        assertThat(decode("\"18446744073709551615\"", d -> d.readUInt64(null))).isEqualTo(-1L);
    }
}
