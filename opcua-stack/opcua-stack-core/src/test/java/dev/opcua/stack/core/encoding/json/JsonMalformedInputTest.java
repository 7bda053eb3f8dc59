package dev.opcua.stack.core.encoding.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.structured.ConfigurationVersionDataType;
import dev.opcua.stack.core.types.structured.ReadRequest;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Bad UA JSON: each case is a UaEncodingException with the right status and a message naming where and what. */
class JsonMalformedInputTest {

    private static final EncodingLimits SMALL = new EncodingLimits(8, 8, 4, 3);

    private static void fails(String json, EncodingLimits limits, Consumer<JsonDecoder> reads, int status,
            String... messageParts) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        fails(bytes, limits, reads, status, messageParts);
    }

    private static void fails(byte[] bytes, EncodingLimits limits, Consumer<JsonDecoder> reads, int status,
            String... messageParts) {
        assertThatThrownBy(() -> reads.accept(new JsonDecoder(JsonTestSupport.REGISTRY, limits, bytes)))
                .isInstanceOf(UaEncodingException.class)
                .satisfies(e -> assertThat(((UaEncodingException) e).statusCode().value()).as(e.getMessage())
                        .isEqualTo(status))
                .satisfies(e -> assertThat(e.getMessage()).contains(messageParts));
    }

    private static void malformed(String json, Consumer<JsonDecoder> reads, String... messageParts) {
        fails(json, EncodingLimits.DEFAULT, reads, StatusCodes.BadDecodingError, messageParts);
    }

    private static final Consumer<JsonDecoder> VERSION = d -> d.decode(ConfigurationVersionDataType.CODEC);

    @Test
    void syntax_errors_truncation_and_trailing_data() {
        malformed("{\"MajorVersion\":1", VERSION, "JSON document", "ends");
        malformed("{\"MajorVersion\":1,}", VERSION, "member name");
        malformed("{\"MajorVersion\" 1}", VERSION, "expected ':'");
        malformed("{} x", VERSION, "after the JSON value");
        malformed("", VERSION, "empty");
        malformed("{\"MajorVersion\":01}", VERSION, "expected ',' or '}'");
        malformed("{\"MajorVersion\":tru}", VERSION, "MajorVersion", "literal");
        malformed("[1,2", d -> d.readInt32Array(null), "[1]", "ends");
    }

    @Test
    void bad_strings_escapes_utf8_and_surrogates() {
        malformed("\"a\\xb\"", d -> d.readString(null), "invalid escape '\\x'");
        malformed("\"\\u12G4\"", d -> d.readString(null), "4 hex digits");
        malformed("\"\\uD800\"", d -> d.readString(null), "high surrogate");
        malformed("\"\\uDC00x\"", d -> d.readString(null), "lone low surrogate");
        malformed("{\"S\":\"a\tb\"}", d -> d.readString("S"), "S: raw control character 0x09");
        fails(new byte[] {'"', (byte) 0xC3, '"'}, EncodingLimits.DEFAULT, d -> d.readString(null),
                StatusCodes.BadDecodingError, "UTF-8");
        fails(new byte[] {'"', (byte) 0xC0, (byte) 0x80, '"'}, EncodingLimits.DEFAULT, d -> d.readString(null),
                StatusCodes.BadDecodingError, "invalid UTF-8");
        fails(new byte[] {'"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"'}, EncodingLimits.DEFAULT,
                d -> d.readString(null), StatusCodes.BadDecodingError, "invalid UTF-8 sequence");
    }

    @Test
    void a_lone_surrogate_is_refused_when_encoding() {
        JsonEncoder encoder = new JsonEncoder(JsonTestSupport.REGISTRY, JsonEncoding.COMPACT);
        encoder.beginObject();
        assertThatThrownBy(() -> encoder.writeString("Name", "a\uD800b"))
                .isInstanceOf(UaEncodingException.class)
                .hasMessageContaining("field Name").hasMessageContaining("lone surrogate U+D800")
                .satisfies(e -> assertThat(((UaEncodingException) e).statusCode().value())
                        .isEqualTo(StatusCodes.BadEncodingError));
    }

    @Test
    void duplicate_members_are_refused() {
        malformed("{\"MajorVersion\":1,\"MajorVersion\":2}", VERSION, "duplicate member \"MajorVersion\"");
        StringBuilder many = new StringBuilder("{");
        for (int i = 0; i < 20; i++) {
            many.append("\"m").append(i).append("\":").append(i).append(',');
        }
        many.append("\"m7\":0}");
        malformed(many.toString(), VERSION, "duplicate member \"m7\"");
    }

    @Test
    void wrong_json_types_and_numbers_out_of_range_name_the_field() {
        malformed("{\"MajorVersion\":\"1\"}", VERSION, "ConfigurationVersionDataType", "MajorVersion",
                "expected a UInt32 number but found a string");
        malformed("{\"MajorVersion\":4294967296}", VERSION, "MajorVersion", "out of range for UInt32");
        malformed("{\"MajorVersion\":-1}", VERSION, "MajorVersion", "out of range for UInt32");
        malformed("{\"MajorVersion\":1.5}", VERSION, "MajorVersion", "not an integer");
        malformed("{\"MajorVersion\":123456789012345678901234567890}", VERSION, "out of range for UInt32");
        malformed("{\"F\":1e39}", d -> d.readFloat("F"), "F", "out of range for Float");
        malformed("{\"D\":\"Inf\"}", d -> d.readDouble("D"), "D", "no Double");
        malformed("{\"I\":\"12a\"}", d -> d.readInt64("I"), "I", "not an integer");
        malformed("{\"U\":\"-1\"}", d -> d.readUInt64("U"), "U", "not a UInt64");
        malformed("{\"B\":1}", d -> d.readBoolean("B"), "B", "true or false");
        malformed("[1,null]", d -> d.readInt32Array(null), "[1]", "null is no Int32");
        malformed("{\"E\":7}", d -> d.readEnum("E", dev.opcua.stack.core.types.enumerated.TimestampsToReturn::fromValue),
                "E", "unknown enumeration value 7");
    }

    @Test
    void a_bad_value_deep_in_a_message_names_its_path() {
        malformed("{\"RequestHeader\":{},\"NodesToRead\":[{},{\"AttributeId\":4294967296}]}",
                d -> d.decode(ReadRequest.CODEC), "ReadRequest", "NodesToRead[1].AttributeId",
                "out of range for UInt32");
        malformed("{\"RequestHeader\":{\"Timestamp\":\"2020-13-01T00:00:00Z\"}}", d -> d.decode(ReadRequest.CODEC),
                "RequestHeader.Timestamp", "invalid DateTime");
    }

    @Test
    void bad_text_forms() {
        malformed("{\"B\":\"!!!\"}", d -> d.readByteString("B"), "B", "invalid base64");
        malformed("{\"N\":\"x=5\"}", d -> d.readNodeId("N"), "N", "invalid NodeId", "unknown identifier type");
        malformed("{\"N\":\"ns=70000;i=1\"}", d -> d.readNodeId("N"), "N", "invalid NodeId");
        malformed("{\"N\":\"svr=1;i=1\"}", d -> d.readNodeId("N"), "N", "names a server");
        malformed("{\"G\":\"1-2-3-4-5\"}", d -> d.readGuid("G"), "G", "invalid Guid");
        malformed("{\"T\":\"yesterday\"}", d -> d.readDateTime("T"), "T", "invalid DateTime");
        malformed("{\"Q\":\"99999:x\"}", d -> d.readQualifiedName("Q"), "Q", "above 65535");
    }

    @Test
    void containers_that_do_not_fit_their_type() {
        malformed("{\"V\":{\"UaType\":26,\"Value\":1}}", d -> d.readVariant("V"), "V.UaType", "out of range");
        malformed("{\"V\":{\"UaType\":6,\"Value\":[1,2,3],\"Dimensions\":[2,2]}}", d -> d.readVariant("V"),
                "V.Dimensions", "do not match the array length 3");
        malformed("{\"V\":{\"UaType\":6,\"Value\":1,\"Dimensions\":[1]}}", d -> d.readVariant("V"),
                "Value is not an array");
        malformed("{\"V\":{\"Value\":1}}", d -> d.readVariant("V"), "V.UaType", "missing");
        malformed("{\"E\":{\"UaTypeId\":\"ns=9;i=77\",\"X\":1}}", d -> d.readExtensionObject("E"), "E.UaTypeId",
                "no codec is registered for the DataType ns=9;i=77");
        malformed("{\"E\":{\"UaTypeId\":\"i=1\",\"UaEncoding\":3}}", d -> d.readExtensionObject("E"),
                "E.UaEncoding", "out of range");
        malformed("{\"E\":[]}", d -> d.readExtensionObject("E"), "E", "expected an object but found an array");
    }

    @Test
    void limits_are_enforced_while_parsing_and_reading() {
        int limit = StatusCodes.BadEncodingLimitsExceeded;
        fails("[1,2,3,4,5]", SMALL, d -> d.readInt32Array(null), limit, "MaxArrayLength");
        fails("{\"S\":\"123456789\"}", SMALL, d -> d.readString("S"), limit, "S", "exceeds MaxStringLength 8");
        fails("{\"S\":\"" + "x".repeat(40) + "\"}", SMALL, d -> d.readString("S"), limit, "S", "longer than");
        fails("{\"B\":\"" + "QUFB".repeat(3) + "\"}", SMALL, d -> d.readByteString("B"), limit, "B",
                "MaxByteStringLength 8");
        // Longer than any String, ByteString (as base64) or XmlElement may be: refused while parsing.
        fails("{\"B\":\"" + "QUFB".repeat(4) + "\"}", SMALL, d -> d.readByteString("B"), limit, "B",
                "longer than 12 UTF-8 bytes");
        fails("[".repeat(100) + "]".repeat(100), SMALL, d -> d.readVariant(null), limit, "JSON nesting deeper");
        String nested = "{\"UaType\":24,\"Value\":[".repeat(4) + "]}]}]}]}";
        fails(nested, SMALL, d -> d.readVariant(null), limit, "Value[0]", "MaxEncodingNestingLevels 3");
        assertThatThrownBy(() -> new JsonDecoder(JsonTestSupport.REGISTRY, EncodingLimits.DEFAULT, null,
                new byte[100], 0, 100, 99))
                .isInstanceOf(UaEncodingException.class).hasMessageContaining("100 bytes exceeds the maximum of 99");
    }
}
