package dev.opcua.stack.core.encoding.json;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaCodec;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.encoding.UaReader;
import dev.opcua.stack.core.types.UaEnumeration;
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
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.function.IntFunction;

/**
 * Reads UA JSON (OPC 10000-6 1.05, 5.4), in either form ({@link JsonEncoding}): a missing member is its
 * type's default, JSON null is NULL, members may come in any order.
 *
 * <p>The document is parsed up front by our own parser into a tree (UA JSON objects are unordered while codecs
 * read in field order), within the {@link EncodingLimits} and a maximum document size; then the reads walk the
 * tree and check each value against its type and limit. Every failure is a {@link UaEncodingException}:
 * {@code BadDecodingError} for malformed input (syntax, wrong JSON type, number out of the type's range, bad
 * base64, NodeId, Guid or DateTime text, unknown enumeration value, duplicate members) and
 * {@code BadEncodingLimitsExceeded} beyond a limit; the message names the field's path, e.g.
 * {@code NodesToRead[3].AttributeId: the number 4294967296 is out of range for UInt32}.
 *
 * <p><b>Cursor.</b> The decoder has a current value, at first the document's root. {@code readX(field)} reads
 * the member {@code field} of the current value (an object), or the current value itself when {@code field} is
 * null. {@link #enterObject(String)} and {@link #enterArray(String)} make a member (or, for null, the current
 * value) current; {@link #enterElement(int)} makes an element of the current array current; every enter is
 * undone by one {@link #exit()}. {@link #hasField} and {@link #fieldNames} look at the current object.
 *
 * <p><b>ExtensionObjects</b> are decoded with the codec of their {@code UaTypeId}
 * ({@link CodecRegistry#codecForDataTypeId}, or a binary encoding id as older writers used); one whose
 * {@code UaTypeId} has no codec is a {@code BadDecodingError} naming the id, unless it has no other members
 * (then it is an ExtensionObject without a body). {@code UaEncoding} 1 and 2 bodies are kept undecoded.
 *
 * <p>Structure reads, ExtensionObjects, Variants, DataValues and DiagnosticInfos count against
 * {@link EncodingLimits#maxNestingDepth()}. The cursor, the path and the failures are the package-private base
 * class's ({@code JsonCursor}); the built-in values are read by {@code JsonBuiltinReader}. Not thread-safe; one
 * decoder per document.
 */
public final class JsonDecoder extends JsonCursor implements UaReader {

    /** The document size accepted when none is given: 16 MiB. */
    public static final int DEFAULT_MAX_DOCUMENT_BYTES = 16 << 20;

    private final CodecRegistry registry;
    final List<String> namespaces;

    public JsonDecoder(CodecRegistry registry, EncodingLimits limits, byte[] utf8) {
        this(registry, limits, null, utf8, 0, utf8.length, DEFAULT_MAX_DOCUMENT_BYTES);
    }

    public JsonDecoder(CodecRegistry registry, EncodingLimits limits, String json) {
        this(registry, limits, json.getBytes(StandardCharsets.UTF_8));
    }

    /** Reads the buffer's readable bytes (without consuming them). */
    public JsonDecoder(CodecRegistry registry, EncodingLimits limits, ByteBuf buf) {
        this(registry, limits, null, bytesOf(buf), 0, Math.min(buf.readableBytes(), DEFAULT_MAX_DOCUMENT_BYTES),
                DEFAULT_MAX_DOCUMENT_BYTES);
    }

    /**
     * @param namespaceUris the namespace table for {@code nsu=} forms (element i is namespace index i), or null
     * @param maxDocumentBytes a longer document is refused with {@code BadEncodingLimitsExceeded} before parsing
     */
    public JsonDecoder(CodecRegistry registry, EncodingLimits limits, List<String> namespaceUris, byte[] utf8,
            int offset, int length, int maxDocumentBytes) {
        super(limits);
        this.registry = registry;
        this.namespaces = namespaceUris == null ? null : List.copyOf(namespaceUris);
        if (length > maxDocumentBytes) {
            throw UaEncodingException.limitExceeded("JSON document of " + length + " bytes exceeds the maximum of "
                    + maxDocumentBytes);
        }
        nodes[0] = new JsonParser(utf8, offset, length, limits).parseDocument();
        indexes[0] = -1;
    }

    private static byte[] bytesOf(ByteBuf buf) {
        if (buf.readableBytes() > DEFAULT_MAX_DOCUMENT_BYTES) {
            throw UaEncodingException.limitExceeded("JSON document of " + buf.readableBytes()
                    + " bytes exceeds the maximum of " + DEFAULT_MAX_DOCUMENT_BYTES);
        }
        return ByteBufUtil.getBytes(buf, buf.readerIndex(), buf.readableBytes(), false);
    }

    @Override
    public EncodingLimits limits() {
        return limits;
    }

    @Override
    public CodecRegistry registry() {
        return registry;
    }

    /** Reads the current value (at first the document's root) as a structure of the codec's type. */
    public <T> T decode(UaCodec<T> codec) {
        // Named after the type, as the binary decoder does, so that failure paths start with it.
        return decodeStruct(codec.type().getSimpleName(), nodes[top], codec);
    }

    // ---- navigation -------------------------------------------------------------------------------------------

    /** Whether the current value is an object with the member {@code field} (even a JSON null one). */
    public boolean hasField(String field) {
        JsonNode current = nodes[top];
        return current.kind == JsonNode.Kind.OBJECT && current.member(field) != null;
    }

    /** The JSON type of a value, for {@link #typeOf}. */
    public enum ValueType { OBJECT, ARRAY, STRING, NUMBER, BOOLEAN, NULL, MISSING }

    /**
     * The JSON type of the member {@code field} (null: the current value), MISSING when the current object has no
     * such member: for readers of documents where a value may come bare or wrapped (the PubSub field encodings,
     * Part 14, 7.2.5.4.2).
     */
    public ValueType typeOf(String field) {
        JsonNode current = nodes[top];
        JsonNode n = field == null ? current : current.kind == JsonNode.Kind.OBJECT ? current.member(field) : null;
        if (n == null) {
            return ValueType.MISSING;
        }
        return switch (n.kind) {
            case OBJECT -> ValueType.OBJECT;
            case ARRAY -> ValueType.ARRAY;
            case STRING -> ValueType.STRING;
            case NUMBER -> ValueType.NUMBER;
            case TRUE, FALSE -> ValueType.BOOLEAN;
            case NULL -> ValueType.NULL;
        };
    }

    /** The member names of the current object in document order; empty when the current value is no object. */
    public List<String> fieldNames() {
        return nodes[top].names();
    }

    /** Makes the object {@code field} (null: the current value) current; a missing or null member is {@code {}}. */
    public JsonDecoder enterObject(String field) {
        JsonNode n = value(field);
        push(n == null || n.isNull() ? JsonNode.EMPTY_OBJECT : requireKind(field, n, JsonNode.Kind.OBJECT), field, -1);
        return this;
    }

    /**
     * Makes the array {@code field} (null: the current value) current.
     *
     * @return its length, or -1 when the member is missing or null (an empty array is current then)
     */
    public int enterArray(String field) {
        JsonNode n = value(field);
        if (n == null || n.isNull()) {
            push(JsonNode.EMPTY_ARRAY, field, -1);
            return -1;
        }
        push(requireKind(field, n, JsonNode.Kind.ARRAY), field, -1);
        return n.size();
    }

    /** Makes element {@code index} of the current array current. */
    public JsonDecoder enterElement(int index) {
        JsonNode array = nodes[top];
        if (array.kind != JsonNode.Kind.ARRAY) {
            throw malformed(null, "is " + array.describe() + ", not an array");
        }
        if (index < 0 || index >= array.size()) {
            throw malformed(null, "has no element " + index + " (length " + array.size() + ")");
        }
        push(array.element(index), null, index);
        return this;
    }

    /** Undoes the last enter. */
    public JsonDecoder exit() {
        pop();
        return this;
    }

    private Object scalar(String field, BuiltinType type) {
        return JsonBuiltinReader.scalar(this, field, type, value(field));
    }

    private Object array(String field, BuiltinType type) {
        return JsonBuiltinReader.array(this, field, type, value(field));
    }

    // ---- built-in scalars ---------------------------------------------------------------------------------------

    @Override
    public boolean readBoolean(String field) {
        return (Boolean) scalar(field, BuiltinType.Boolean);
    }

    @Override
    public byte readSByte(String field) {
        return (Byte) scalar(field, BuiltinType.SByte);
    }

    @Override
    public short readByte(String field) {
        return (Short) scalar(field, BuiltinType.Byte);
    }

    @Override
    public short readInt16(String field) {
        return (Short) scalar(field, BuiltinType.Int16);
    }

    @Override
    public int readUInt16(String field) {
        return (Integer) scalar(field, BuiltinType.UInt16);
    }

    @Override
    public int readInt32(String field) {
        return (Integer) scalar(field, BuiltinType.Int32);
    }

    @Override
    public long readUInt32(String field) {
        return (Long) scalar(field, BuiltinType.UInt32);
    }

    @Override
    public long readInt64(String field) {
        return (Long) scalar(field, BuiltinType.Int64);
    }

    @Override
    public long readUInt64(String field) {
        return (Long) scalar(field, BuiltinType.UInt64);
    }

    @Override
    public float readFloat(String field) {
        return (Float) scalar(field, BuiltinType.Float);
    }

    @Override
    public double readDouble(String field) {
        return (Double) scalar(field, BuiltinType.Double);
    }

    @Override
    public String readString(String field) {
        return (String) scalar(field, BuiltinType.String);
    }

    @Override
    public DateTime readDateTime(String field) {
        return (DateTime) scalar(field, BuiltinType.DateTime);
    }

    @Override
    public UUID readGuid(String field) {
        return (UUID) scalar(field, BuiltinType.Guid);
    }

    @Override
    public ByteString readByteString(String field) {
        return (ByteString) scalar(field, BuiltinType.ByteString);
    }

    @Override
    public XmlElement readXmlElement(String field) {
        return (XmlElement) scalar(field, BuiltinType.XmlElement);
    }

    @Override
    public NodeId readNodeId(String field) {
        return (NodeId) scalar(field, BuiltinType.NodeId);
    }

    @Override
    public ExpandedNodeId readExpandedNodeId(String field) {
        return (ExpandedNodeId) scalar(field, BuiltinType.ExpandedNodeId);
    }

    @Override
    public StatusCode readStatusCode(String field) {
        return (StatusCode) scalar(field, BuiltinType.StatusCode);
    }

    @Override
    public QualifiedName readQualifiedName(String field) {
        return (QualifiedName) scalar(field, BuiltinType.QualifiedName);
    }

    @Override
    public LocalizedText readLocalizedText(String field) {
        return (LocalizedText) scalar(field, BuiltinType.LocalizedText);
    }

    @Override
    public ExtensionObject readExtensionObject(String field) {
        return (ExtensionObject) scalar(field, BuiltinType.ExtensionObject);
    }

    @Override
    public DataValue readDataValue(String field) {
        return (DataValue) scalar(field, BuiltinType.DataValue);
    }

    @Override
    public Variant readVariant(String field) {
        return JsonBuiltinReader.variant(this, field, value(field));
    }

    @Override
    public DiagnosticInfo readDiagnosticInfo(String field) {
        return (DiagnosticInfo) scalar(field, BuiltinType.DiagnosticInfo);
    }

    /** A scalar as {@link Variant} holds it, or an array of {@link BuiltinType#arrayClass()} (null when NULL). */
    @Override
    public Object readField(String field, BuiltinType type, boolean array) {
        return array ? array(field, type) : scalar(field, type);
    }

    // ---- enumerations and structures ----------------------------------------------------------------------------

    /** A number, or the verbose {@code "Name_Value"} string (the value after the last '_' counts). */
    @Override
    public <E extends UaEnumeration> E readEnum(String field, IntFunction<E> fromValue) {
        return JsonBuiltinReader.enumeration(this, field, value(field), fromValue);
    }

    /** Reads an object (a missing or null one as {@code {}}) with the codec (5.4.6). */
    @Override
    public <T> T readStruct(String field, UaCodec<T> codec) {
        JsonNode n = value(field);
        return decodeStruct(field, n == null || n.isNull() ? JsonNode.EMPTY_OBJECT : n, codec);
    }

    <T> T decodeStruct(String field, JsonNode n, UaCodec<T> codec) {
        enterNested(field, n);
        try {
            return codec.decode(this);
        } catch (IllegalArgumentException | IllegalStateException | IndexOutOfBoundsException e) {
            // A constructor refused a decoded value: report it as malformed input at this path.
            throw malformed(null, String.valueOf(e.getMessage()));
        } finally {
            exitNested();
        }
    }

    // ---- arrays ---------------------------------------------------------------------------------------------------

    @Override
    public boolean[] readBooleanArray(String field) {
        return (boolean[]) array(field, BuiltinType.Boolean);
    }

    @Override
    public byte[] readSByteArray(String field) {
        return (byte[]) array(field, BuiltinType.SByte);
    }

    @Override
    public short[] readByteArray(String field) {
        return (short[]) array(field, BuiltinType.Byte);
    }

    @Override
    public short[] readInt16Array(String field) {
        return (short[]) array(field, BuiltinType.Int16);
    }

    @Override
    public int[] readUInt16Array(String field) {
        return (int[]) array(field, BuiltinType.UInt16);
    }

    @Override
    public int[] readInt32Array(String field) {
        return (int[]) array(field, BuiltinType.Int32);
    }

    @Override
    public long[] readUInt32Array(String field) {
        return (long[]) array(field, BuiltinType.UInt32);
    }

    @Override
    public long[] readInt64Array(String field) {
        return (long[]) array(field, BuiltinType.Int64);
    }

    @Override
    public long[] readUInt64Array(String field) {
        return (long[]) array(field, BuiltinType.UInt64);
    }

    @Override
    public float[] readFloatArray(String field) {
        return (float[]) array(field, BuiltinType.Float);
    }

    @Override
    public double[] readDoubleArray(String field) {
        return (double[]) array(field, BuiltinType.Double);
    }

    @Override
    public String[] readStringArray(String field) {
        return (String[]) array(field, BuiltinType.String);
    }

    @Override
    public DateTime[] readDateTimeArray(String field) {
        return (DateTime[]) array(field, BuiltinType.DateTime);
    }

    @Override
    public UUID[] readGuidArray(String field) {
        return (UUID[]) array(field, BuiltinType.Guid);
    }

    @Override
    public ByteString[] readByteStringArray(String field) {
        return (ByteString[]) array(field, BuiltinType.ByteString);
    }

    @Override
    public XmlElement[] readXmlElementArray(String field) {
        return (XmlElement[]) array(field, BuiltinType.XmlElement);
    }

    @Override
    public NodeId[] readNodeIdArray(String field) {
        return (NodeId[]) array(field, BuiltinType.NodeId);
    }

    @Override
    public ExpandedNodeId[] readExpandedNodeIdArray(String field) {
        return (ExpandedNodeId[]) array(field, BuiltinType.ExpandedNodeId);
    }

    @Override
    public StatusCode[] readStatusCodeArray(String field) {
        return (StatusCode[]) array(field, BuiltinType.StatusCode);
    }

    @Override
    public QualifiedName[] readQualifiedNameArray(String field) {
        return (QualifiedName[]) array(field, BuiltinType.QualifiedName);
    }

    @Override
    public LocalizedText[] readLocalizedTextArray(String field) {
        return (LocalizedText[]) array(field, BuiltinType.LocalizedText);
    }

    @Override
    public ExtensionObject[] readExtensionObjectArray(String field) {
        return (ExtensionObject[]) array(field, BuiltinType.ExtensionObject);
    }

    @Override
    public DataValue[] readDataValueArray(String field) {
        return (DataValue[]) array(field, BuiltinType.DataValue);
    }

    @Override
    public Variant[] readVariantArray(String field) {
        return (Variant[]) array(field, BuiltinType.Variant);
    }

    @Override
    public DiagnosticInfo[] readDiagnosticInfoArray(String field) {
        return (DiagnosticInfo[]) array(field, BuiltinType.DiagnosticInfo);
    }

    @Override
    public <E extends UaEnumeration> E[] readEnumArray(String field, IntFunction<E> fromValue,
            IntFunction<E[]> newArray) {
        JsonNode n = value(field);
        if (n == null || n.isNull()) {
            return null;
        }
        requireKind(field, n, JsonNode.Kind.ARRAY);
        E[] values = newArray.apply(n.size());
        push(n, field, 0);
        try {
            for (int i = 0; i < values.length; i++) {
                index(i);
                values[i] = JsonBuiltinReader.enumeration(this, null, n.element(i), fromValue);
            }
        } finally {
            exit();
        }
        return values;
    }

    @Override
    public <T> T[] readStructArray(String field, UaCodec<T> codec, IntFunction<T[]> newArray) {
        JsonNode n = value(field);
        if (n == null || n.isNull()) {
            return null;
        }
        requireKind(field, n, JsonNode.Kind.ARRAY);
        T[] values = newArray.apply(n.size());
        push(n, field, 0);
        try {
            for (int i = 0; i < values.length; i++) {
                index(i);
                values[i] = decodeStruct(null, n.element(i), codec);
            }
        } finally {
            exit();
        }
        return values;
    }

    // ---- optional fields and unions (5.4.7, 5.4.8) ---------------------------------------------------------------

    /** The {@code EncodingMask} member when present (compact form); else the bits of the optional members present. */
    @Override
    public long readEncodingMask(List<String> optionalFields) {
        JsonNode mask = value("EncodingMask");
        if (mask != null && !mask.isNull()) {
            return (Long) JsonBuiltinReader.scalar(this, "EncodingMask", BuiltinType.UInt32, mask);
        }
        long bits = 0;
        for (int i = 0; i < optionalFields.size() && i < 64; i++) {
            if (hasField(optionalFields.get(i))) {
                bits |= 1L << i;
            }
        }
        return bits;
    }

    /**
     * The {@code SwitchField} member when present (compact form; its field is also read from {@code "Value"},
     * the 1.04 form, when the field's own name is missing); else the 1-based index of the one field present
     * (verbose form), 0 for none. Two fields present is malformed.
     */
    @Override
    public long readSwitchField(List<String> fields) {
        JsonNode switchNode = value("SwitchField");
        if (switchNode != null && !switchNode.isNull()) {
            long switchField = (Long) JsonBuiltinReader.scalar(this, "SwitchField", BuiltinType.UInt32, switchNode);
            if (switchField > 0 && switchField <= fields.size()) {
                String name = fields.get((int) switchField - 1);
                if (!hasField(name) && hasField("Value")) {
                    aliases[top] = name;
                }
            }
            return switchField;
        }
        long chosen = 0;
        for (int i = 0; i < fields.size(); i++) {
            if (hasField(fields.get(i))) {
                if (chosen != 0) {
                    throw malformed(null, "union has both " + fields.get((int) chosen - 1) + " and " + fields.get(i)
                            + "; a union holds one field");
                }
                chosen = i + 1;
            }
        }
        return chosen;
    }
}
