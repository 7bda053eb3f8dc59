package dev.opcua.stack.core.encoding.json;

import static dev.opcua.stack.core.encoding.json.JsonTestSupport.REGISTRY;
import static dev.opcua.stack.core.encoding.json.JsonTestSupport.decode;
import static dev.opcua.stack.core.encoding.json.JsonTestSupport.encode;
import static dev.opcua.stack.core.encoding.json.JsonTestSupport.member;
import static dev.opcua.stack.core.encoding.json.JsonTestSupport.standardParse;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.binary.RandomValues;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.DiagnosticInfo;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.builtin.XmlElement;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ConfigurationVersionDataType;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.RequestHeader;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Built-in values, containers and the two forms, through JsonEncoder and back through JsonDecoder. */
class JsonBuiltinRoundTripTest {

    private static final DateTime T1 = DateTime.ofInstant(Instant.parse("2024-05-06T07:08:09.1234567Z"));
    private static final DateTime T2 = DateTime.ofInstant(Instant.parse("2024-05-06T07:08:10Z"));

    private static final Object[] SCALARS = {true, (byte) -5, (short) 200, (short) -300, 65_000, -7, 4_000_000_000L,
        Long.MIN_VALUE, -1L, 1.5f, -0.1, "x\"\\\n\u0001é😀", T1, UUID.fromString("72962b91-fa75-4ae6-8d28-b404dc7daf63"),
        ByteString.of(new byte[] {0, 1, (byte) 0xFF}), XmlElement.of("<a b=\"1\"/>"), NodeId.string(3, "A;B"),
        ExpandedNodeId.of(NodeId.numeric(0, 5), "urn:x;y", 2), StatusCode.of(StatusCodes.BadNodeIdUnknown),
        QualifiedName.of(2, "Name"), LocalizedText.of("de", "Hallo"),
        ExtensionObject.of(new ConfigurationVersionDataType(1, 2)),
        DataValue.of(Variant.ofInt32(3), StatusCode.UNCERTAIN, T1, 12, T2, 34), null,
        DiagnosticInfo.of(1, 2, 3, 4, "more", StatusCode.BAD, DiagnosticInfo.of(5, -1, -1, -1, null, null, null))};

    private static Object roundTrip(JsonEncoding encoding, Variant v) {
        String json = encode(encoding, e -> e.writeVariant(null, v));
        standardParse(json);
        return decode(json, d -> d.readVariant(null));
    }

    @Test
    void every_built_in_type_as_scalar_array_and_matrix_in_both_forms() {
        for (JsonEncoding encoding : JsonEncoding.values()) {
            for (int typeId = 1; typeId <= 25; typeId++) {
                BuiltinType type = BuiltinType.fromTypeId(typeId);
                Object scalar = type == BuiltinType.Variant ? Variant.ofDouble(2.5) : SCALARS[typeId - 1];
                if (type != BuiltinType.Variant) {
                    Variant v = Variant.ofScalar(type, scalar);
                    assertThat(roundTrip(encoding, v)).as("%s %s", encoding, type).isEqualTo(v);
                }
                Object array = java.lang.reflect.Array.newInstance(type.arrayClass().getComponentType(), 4);
                for (int i = 0; i < 4; i++) {
                    java.lang.reflect.Array.set(array, i, scalar);
                }
                Variant arrayVariant = Variant.ofArray(type, array);
                assertThat(roundTrip(encoding, arrayVariant)).as("%s %s[]", encoding, type).isEqualTo(arrayVariant);
                Variant matrix = Variant.ofMatrix(type, array, new int[] {2, 2});
                assertThat(roundTrip(encoding, matrix)).as("%s %s[2,2]", encoding, type).isEqualTo(matrix);
            }
        }
    }

    @Test
    void a_matrix_is_flat_with_its_dimensions() {
        Variant matrix = Variant.ofMatrix(BuiltinType.Int32, new int[] {1, 2, 3, 4, 5, 6}, new int[] {2, 3});
        assertThat(encode(JsonEncoding.COMPACT, e -> e.writeVariant(null, matrix)))
                .isEqualTo("{\"UaType\":6,\"Value\":[1,2,3,4,5,6],\"Dimensions\":[2,3]}");
    }

    @Test
    void data_value_with_every_field_in_both_forms() {
        DataValue dv = DataValue.of(Variant.ofDouble(21.5), StatusCode.of(StatusCodes.BadNodeIdUnknown), T1, 12, T2, 34);
        String compact = encode(JsonEncoding.COMPACT, e -> e.writeDataValue(null, dv));
        String verbose = encode(JsonEncoding.VERBOSE, e -> e.writeDataValue(null, dv));
        assertThat(compact).isEqualTo("{\"UaType\":11,\"Value\":21.5,\"Status\":{\"Code\":2150891520},"
                + "\"SourceTimestamp\":\"2024-05-06T07:08:09.1234567Z\",\"SourcePicoseconds\":12,"
                + "\"ServerTimestamp\":\"2024-05-06T07:08:10Z\",\"ServerPicoseconds\":34}");
        assertThat(verbose).isEqualTo(compact.replace("2150891520}", "2150891520,\"Symbol\":\"BadNodeIdUnknown\"}"));
        assertThat(decode(compact, d -> d.readDataValue(null))).isEqualTo(dv);
        assertThat(decode(verbose, d -> d.readDataValue(null))).isEqualTo(dv);
        assertThat(encode(JsonEncoding.COMPACT, e -> e.writeDataValue(null, DataValue.of(Variant.ofDouble(0)))))
                .isEqualTo("{\"UaType\":11,\"Value\":0.0}");
    }

    @Test
    void nested_variants_and_random_data_values_round_trip() {
        Variant inner = Variant.ofArray(BuiltinType.Variant, new Variant[] {Variant.ofString("a"), Variant.NULL,
            Variant.ofArray(BuiltinType.Variant, new Variant[] {Variant.of(ExtensionObject.of(
                    new ConfigurationVersionDataType(7, 8)))})});
        for (JsonEncoding encoding : JsonEncoding.values()) {
            assertThat(roundTrip(encoding, inner)).isEqualTo(inner);
            for (int seed = 0; seed < 300; seed++) {
                RandomValues random = new RandomValues(seed, true);
                DataValue dv = random.dataValue(0);
                String json = encode(encoding, e -> e.writeDataValue(null, dv));
                standardParse(json);
                assertThat(decode(json, d -> d.readDataValue(null))).as(json).isEqualTo(dv);
                Variant v = random.variant(0);
                assertThat(roundTrip(encoding, v)).isEqualTo(v);
            }
        }
    }

    @Test
    void extension_objects_of_structures_and_of_undecoded_bodies() {
        ExtensionObject eo = ExtensionObject.of(new ConfigurationVersionDataType(1, 0));
        assertThat(encode(JsonEncoding.COMPACT, e -> e.writeExtensionObject(null, eo)))
                .isEqualTo("{\"UaTypeId\":\"i=14593\",\"MajorVersion\":1}");
        assertThat(encode(JsonEncoding.VERBOSE, e -> e.writeExtensionObject(null, eo)))
                .isEqualTo("{\"UaTypeId\":\"i=14593\",\"MajorVersion\":1,\"MinorVersion\":0}");
        assertThat(decode("{\"MinorVersion\":0,\"UaTypeId\":\"i=14593\",\"MajorVersion\":1}",
                d -> d.readExtensionObject(null))).isEqualTo(eo);
        ExtensionObject binary = ExtensionObject.ofBinary(NodeId.numeric(2, 99), ByteString.of(new byte[] {1, 2}));
        assertThat(encode(JsonEncoding.COMPACT, e -> e.writeExtensionObject(null, binary)))
                .isEqualTo("{\"UaTypeId\":\"ns=2;i=99\",\"UaEncoding\":1,\"UaBody\":\"AQI=\"}");
        assertThat(decode("{\"UaTypeId\":\"ns=2;i=99\",\"UaEncoding\":1,\"UaBody\":\"AQI=\"}",
                d -> d.readExtensionObject(null))).isEqualTo(binary);
        ExtensionObject xml = ExtensionObject.ofXml(NodeId.numeric(2, 98), XmlElement.of("<x>ü</x>"));
        assertThat(decode(encode(JsonEncoding.VERBOSE, e -> e.writeExtensionObject(null, xml)),
                d -> d.readExtensionObject(null))).isEqualTo(xml);
        // 5.4.2.16: the null ExtensionObject is left out (compact) or {} (verbose); an unknown type without members
        // is kept as a body-less ExtensionObject.
        assertThat(member(JsonEncoding.COMPACT, e -> e.writeExtensionObject("E", ExtensionObject.NULL))).isEqualTo("{}");
        assertThat(member(JsonEncoding.VERBOSE, e -> e.writeExtensionObject("E", ExtensionObject.NULL)))
                .isEqualTo("{\"E\":{}}");
        assertThat(decode("{\"UaTypeId\":\"ns=9;i=1\"}", d -> d.readExtensionObject(null)))
                .isEqualTo(ExtensionObject.ofEmpty(NodeId.numeric(9, 1)));
    }

    @Test
    void compact_leaves_out_nulls_and_defaults_verbose_writes_them_and_names_enumerations() {
        ReadRequest request = new ReadRequest(new RequestHeader(NodeId.NULL, DateTime.MIN_VALUE, 5, 0, null, 0,
                ExtensionObject.NULL), 0.0, TimestampsToReturn.Both,
                new ReadValueId[] {new ReadValueId(NodeId.ns0(2258), 13, null, QualifiedName.NULL)});
        String compact = encode(JsonEncoding.COMPACT, e -> e.writeStruct(null, request, ReadRequest.CODEC));
        String verbose = encode(JsonEncoding.VERBOSE, e -> e.writeStruct(null, request, ReadRequest.CODEC));
        assertThat(compact).isEqualTo("{\"RequestHeader\":{\"RequestHandle\":5},\"TimestampsToReturn\":2,"
                + "\"NodesToRead\":[{\"NodeId\":\"i=2258\",\"AttributeId\":13}]}");
        assertThat(verbose).isEqualTo("{\"RequestHeader\":{\"AuthenticationToken\":null,"
                + "\"Timestamp\":\"0001-01-01T00:00:00Z\",\"RequestHandle\":5,\"ReturnDiagnostics\":0,"
                + "\"AuditEntryId\":null,\"TimeoutHint\":0,\"AdditionalHeader\":{}},\"MaxAge\":0.0,"
                + "\"TimestampsToReturn\":\"Both_2\",\"NodesToRead\":[{\"NodeId\":\"i=2258\",\"AttributeId\":13,"
                + "\"IndexRange\":null,\"DataEncoding\":null}]}");
        assertThat(decode(compact, d -> d.decode(ReadRequest.CODEC))).isEqualTo(request);
        assertThat(decode(verbose, d -> d.decode(ReadRequest.CODEC))).isEqualTo(request);
    }

    @Test
    void namespace_table_gives_nsu_forms_and_reads_them_back() {
        List<String> table = List.of("http://opcfoundation.org/UA/", "urn:a");
        JsonEncoder encoder = new JsonEncoder(REGISTRY, JsonEncoding.COMPACT, table);
        encoder.beginObject();
        encoder.writeQualifiedName("Q", QualifiedName.of(1, "Temp"));
        encoder.writeExpandedNodeId("X", ExpandedNodeId.of(NodeId.numeric(1, 5), null, 3));
        encoder.writeQualifiedName("Z", QualifiedName.of(0, "12:odd"));
        encoder.endObject();
        assertThat(encoder.toJson()).isEqualTo("{\"Q\":\"nsu=urn:a;Temp\",\"X\":\"svr=3;nsu=urn:a;i=5\","
                + "\"Z\":\"0:12:odd\"}");
        byte[] bytes = encoder.toBytes();
        JsonDecoder decoder = new JsonDecoder(REGISTRY, EncodingLimits.DEFAULT, table, bytes, 0, bytes.length, 1024);
        assertThat(decoder.readQualifiedName("Q")).isEqualTo(QualifiedName.of(1, "Temp"));
        assertThat(decoder.readExpandedNodeId("X")).isEqualTo(ExpandedNodeId.of(NodeId.numeric(1, 5), null, 3));
        assertThat(decoder.readQualifiedName("Z")).isEqualTo(QualifiedName.of(0, "12:odd"));
    }

    @Test
    void callers_frame_their_own_documents_and_navigate_them() {
        JsonEncoder encoder = new JsonEncoder(REGISTRY, JsonEncoding.COMPACT);
        encoder.beginObject().beginArray("Messages");
        for (int i = 1; i <= 2; i++) {
            encoder.beginObject();
            encoder.writeString("MessageId", "m" + i);
            encoder.beginObject("Payload");
            encoder.writeDataValue("Temperature", DataValue.of(Variant.ofDouble(20 + i)));
            encoder.endObject();
            encoder.endObject();
        }
        encoder.endArray();
        encoder.writeUInt32Array("Numbers", new long[] {1, 4_294_967_295L});
        encoder.endObject();
        String json = encoder.toJson();
        assertThat(json).isEqualTo("{\"Messages\":[{\"MessageId\":\"m1\",\"Payload\":{\"Temperature\":"
                + "{\"UaType\":11,\"Value\":21.0}}},{\"MessageId\":\"m2\",\"Payload\":{\"Temperature\":"
                + "{\"UaType\":11,\"Value\":22.0}}}],\"Numbers\":[1,4294967295]}");

        JsonDecoder decoder = new JsonDecoder(REGISTRY, EncodingLimits.DEFAULT, json);
        assertThat(decoder.fieldNames()).containsExactly("Messages", "Numbers");
        assertThat(decoder.enterArray("Messages")).isEqualTo(2);
        decoder.enterElement(1);
        assertThat(decoder.readString("MessageId")).isEqualTo("m2");
        decoder.enterObject("Payload");
        assertThat(decoder.hasField("Temperature")).isTrue();
        assertThat(decoder.readDataValue("Temperature").value()).isEqualTo(Variant.ofDouble(22));
        decoder.exit().exit().exit();
        assertThat(decoder.enterArray("Missing")).isEqualTo(-1);
        decoder.exit();
        decoder.enterArray("Numbers");
        decoder.enterElement(1);
        assertThat(decoder.readUInt32(null)).isEqualTo(4_294_967_295L);
        decoder.exit().exit();
        assertThat(decoder.readUInt32Array("Numbers")).containsExactly(1, 4_294_967_295L);
    }
}
