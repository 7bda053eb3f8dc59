package dev.opcua.stack.core.encoding.binary;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaCodec;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.encoding.UaReader;
import dev.opcua.stack.core.types.UaEnumeration;
import dev.opcua.stack.core.types.UaStructure;
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
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.function.IntFunction;

/**
 * Reads UA Binary (Part 6, 5.2) from a Netty {@link ByteBuf}, enforcing {@link EncodingLimits}.
 *
 * <p>Every length is checked against the limit and against the bytes that remain before anything is
 * allocated, so a hostile length costs nothing. Failures are {@link UaEncodingException}s:
 * {@code BadDecodingError} for malformed or truncated input, {@code BadEncodingLimitsExceeded} for input
 * beyond a limit; the message gives the path of the field, e.g.
 * {@code ReadRequest.NodesToRead[3].IndexRange: length 70000 exceeds MaxStringLength 65535}. The path
 * is kept in two small arrays and only turned into a string when a failure is reported.
 *
 * <p>This class holds the public reads and the reads of fixed layout. The checks of every read, the path and
 * the failures are its package-private base class's ({@code BoundedDecoder}); the rest goes to
 * package-private readers that work on its state: {@code NodeIdBodyReader} (NodeId bodies, through the
 * NodeId cache), {@code BuiltinValueReader} (Variant values by type id, ExtensionObject bodies,
 * DiagnosticInfos) and {@code BuiltinArrayReader} (arrays of built-in types and enumerations).
 *
 * <p>Not thread-safe; reuse one decoder per thread or channel with {@link #setBuffer}.
 */
public final class UaDecoder extends BoundedDecoder implements UaReader {

    private static final int MAX_PICOSECONDS = 9999;
    /** Type ids 26..31 are reserved; Part 6, 5.2.2.16 says to read their value as a ByteString. */
    private static final int MAX_RESERVED_TYPE_ID = 31;

    private final CodecRegistry registry;
    /**
     * Recently decoded NodeIds, when {@link #cacheNodeIds()} was called; null otherwise. Package-private,
     * as the buffer is, for the readers this class hands work to.
     */
    NodeIdCache nodeIds;
    private DateTime lastDateTime = DateTime.MIN_VALUE;
    private DateTime previousDateTime = DateTime.MIN_VALUE;

    public UaDecoder(CodecRegistry registry, EncodingLimits limits) {
        super(limits);
        this.registry = registry;
    }

    public UaDecoder(CodecRegistry registry, EncodingLimits limits, ByteBuf buf) {
        this(registry, limits);
        this.buf = buf;
    }

    /**
     * Lets this decoder return the same NodeId instance for the same encoded bytes (numeric, GUID and
     * short String or ByteString ids) instead of decoding a new one each time: for the long-lived decoders
     * of a channel or a worker thread, where the same node ids and session tokens come back in every
     * request. About 64 kB empty and 1 MB when full; not worth it for a decoder that reads one message.
     */
    public UaDecoder cacheNodeIds() {
        if (nodeIds == null) {
            nodeIds = new NodeIdCache();
        }
        return this;
    }

    /** Points this decoder at the next buffer to read and resets its nesting state. */
    public UaDecoder setBuffer(ByteBuf buf) {
        start(buf);
        return this;
    }

    public ByteBuf buffer() {
        return buf;
    }

    public EncodingLimits limits() {
        return limits;
    }

    public CodecRegistry registry() {
        return registry;
    }

    /**
     * Reads a service message: the NodeId of its binary encoding, then its body (Part 6, 7.1.2.4).
     * An encoding id with no registered codec is a {@code BadDecodingError} naming the id.
     */
    public UaStructure readMessage() {
        NodeId encodingId = readNodeId("TypeId");
        UaCodec<?> codec = registry.codecForEncodingId(encodingId);
        if (codec == null) {
            throw UaEncodingException.decodingError("message has unknown encoding id " + encodingId);
        }
        return (UaStructure) decode(codec);
    }

    /** Reads one structure of the codec's type from the current position. */
    public <T> T decode(UaCodec<T> codec) {
        return readStruct(codec.type().getSimpleName(), codec);
    }

    // ---- primitives ----------------------------------------------------------------------------

    public boolean readBoolean(String field) {
        need(field, 1);
        return buf.readByte() != 0;
    }

    public byte readSByte(String field) {
        need(field, 1);
        return buf.readByte();
    }

    public short readByte(String field) {
        need(field, 1);
        return buf.readUnsignedByte();
    }

    public short readInt16(String field) {
        need(field, 2);
        return buf.readShortLE();
    }

    public int readUInt16(String field) {
        need(field, 2);
        return buf.readUnsignedShortLE();
    }

    public int readInt32(String field) {
        need(field, 4);
        return buf.readIntLE();
    }

    public long readUInt32(String field) {
        need(field, 4);
        return buf.readUnsignedIntLE();
    }

    public long readInt64(String field) {
        need(field, 8);
        return buf.readLongLE();
    }

    public long readUInt64(String field) {
        need(field, 8);
        return buf.readLongLE();
    }

    public float readFloat(String field) {
        need(field, 4);
        return buf.readFloatLE();
    }

    public double readDouble(String field) {
        need(field, 8);
        return buf.readDoubleLE();
    }

    // ---- strings, times, guids, bytes ------------------------------------------------------------

    public String readString(String field) {
        int length = readLength(field, limits.maxStringLength(), "MaxStringLength", 1);
        if (length < 0) {
            return null;
        }
        String value = buf.toString(buf.readerIndex(), length, StandardCharsets.UTF_8);
        buf.skipBytes(length);
        return value;
    }

    public DateTime readDateTime(String field) {
        need(field, 8);
        long ticks = buf.readLongLE();
        // Timestamps repeat within a message (one server time for all results, source times of one
        // sampling): DateTime is immutable, so one of the last two read is reused when the ticks match.
        // Two, because a DataValue's source and server times alternate: with one, a notification's server
        // time never matched the source time read just before it.
        DateTime last = lastDateTime;
        if (last.utcTicks() == ticks) {
            return last;
        }
        DateTime previous = previousDateTime;
        if (previous.utcTicks() == ticks) {
            previousDateTime = last;
            lastDateTime = previous;
            return previous;
        }
        DateTime value = DateTime.ofTicks(ticks);
        previousDateTime = last;
        lastDateTime = value;
        return value;
    }

    public UUID readGuid(String field) {
        need(field, 16);
        long data1 = buf.readUnsignedIntLE();
        long data2 = buf.readUnsignedShortLE();
        long data3 = buf.readUnsignedShortLE();
        long data4 = buf.readLong();
        return new UUID((data1 << 32) | (data2 << 16) | data3, data4);
    }

    public ByteString readByteString(String field) {
        int length = readLength(field, limits.maxByteStringLength(), "MaxByteStringLength", 1);
        if (length < 0) {
            return ByteString.NULL;
        }
        byte[] bytes = new byte[length];
        buf.readBytes(bytes);
        return ByteString.wrap(bytes);
    }

    public XmlElement readXmlElement(String field) {
        int length = readLength(field, limits.maxByteStringLength(), "MaxByteStringLength", 1);
        if (length < 0) {
            return XmlElement.NULL;
        }
        String value = buf.toString(buf.readerIndex(), length, StandardCharsets.UTF_8);
        buf.skipBytes(length);
        return XmlElement.of(value);
    }

    // ---- identifiers and names -----------------------------------------------------------------

    public NodeId readNodeId(String field) {
        need(field, 1);
        int encoding = buf.readUnsignedByte();
        if ((encoding & 0xC0) != 0) {
            throw malformed(field,
                    String.format("NodeId encoding byte 0x%02X has ExpandedNodeId flags", encoding));
        }
        return NodeIdBodyReader.read(this, field, encoding);
    }

    public ExpandedNodeId readExpandedNodeId(String field) {
        need(field, 1);
        int encoding = buf.readUnsignedByte();
        NodeId nodeId = NodeIdBodyReader.read(this, field, encoding);
        String uri = (encoding & 0x80) != 0 ? readString(field) : null;
        long serverIndex = (encoding & 0x40) != 0 ? readUInt32(field) : 0;
        if (uri == null && serverIndex == 0) {
            return ExpandedNodeId.of(nodeId);
        }
        return ExpandedNodeId.of(nodeId, uri, serverIndex);
    }

    public StatusCode readStatusCode(String field) {
        need(field, 4);
        return StatusCode.of(buf.readIntLE());
    }

    public QualifiedName readQualifiedName(String field) {
        int ns = readUInt16(field);
        return QualifiedName.of(ns, readString(field));
    }

    public LocalizedText readLocalizedText(String field) {
        need(field, 1);
        int mask = buf.readUnsignedByte();
        String locale = (mask & 0x01) != 0 ? readString(field) : null;
        String text = (mask & 0x02) != 0 ? readString(field) : null;
        return LocalizedText.of(locale, text);
    }

    // ---- containers ---------------------------------------------------------------------------

    /**
     * Reads an ExtensionObject. A binary body with a registered codec is decoded (bounded by its
     * length; bytes a newer peer appended are skipped); one without is kept as raw bytes.
     */
    public ExtensionObject readExtensionObject(String field) {
        NodeId typeId = readNodeId(field);
        need(field, 1);
        int encoding = buf.readUnsignedByte();
        switch (encoding) {
            case 0x00:
                return ExtensionObject.ofEmpty(typeId);
            case 0x01:
                return BuiltinValueReader.readExtensionObjectBody(this, field, typeId);
            case 0x02:
                return ExtensionObject.ofXml(typeId, readXmlElement(field));
            default:
                throw malformed(field, String.format("invalid ExtensionObject encoding byte 0x%02X", encoding));
        }
    }

    public DataValue readDataValue(String field) {
        need(field, 1);
        int mask = buf.readUnsignedByte();
        if (mask == 0) {
            return DataValue.NULL;
        }
        enter(field, -1);
        try {
            Variant value = (mask & 0x01) != 0 ? readVariant("Value") : Variant.NULL;
            StatusCode status = (mask & 0x02) != 0 ? readStatusCode("StatusCode") : StatusCode.GOOD;
            DateTime source = (mask & 0x04) != 0 ? readDateTime("SourceTimestamp") : null;
            int sourcePico = (mask & 0x10) != 0 ? readUInt16("SourcePicoseconds") : 0;
            DateTime server = (mask & 0x08) != 0 ? readDateTime("ServerTimestamp") : null;
            int serverPico = (mask & 0x20) != 0 ? readUInt16("ServerPicoseconds") : 0;
            // Part 6, 5.2.2.17: picoseconds without their timestamp are ignored, values >= 10000 mean 9999.
            return DataValue.of(value, status, source, picoseconds(source, sourcePico), server,
                    picoseconds(server, serverPico));
        } finally {
            exit();
        }
    }

    private static int picoseconds(DateTime timestamp, int picoseconds) {
        if (timestamp == null || timestamp.isNull()) {
            return 0;
        }
        return Math.min(picoseconds, MAX_PICOSECONDS);
    }

    public Variant readVariant(String field) {
        need(field, 1);
        int mask = buf.readUnsignedByte();
        int typeId = mask & 0x3F;
        if (typeId == 0) {
            if (mask != 0) {
                throw malformed(field, String.format("Variant mask 0x%02X has array flags but no type", mask));
            }
            return Variant.NULL;
        }
        BuiltinType type = BuiltinType.fromTypeId(typeId);
        if (type == null) {
            if (typeId > MAX_RESERVED_TYPE_ID) {
                throw malformed(field, "Variant has unknown built-in type id " + typeId);
            }
            type = BuiltinType.ByteString;
        }
        boolean array = (mask & 0x80) != 0;
        boolean dimensions = (mask & 0x40) != 0;
        if (!array) {
            if (dimensions) {
                throw malformed(field, "Variant has ArrayDimensions but is not an array");
            }
            if (type == BuiltinType.Variant) {
                throw malformed(field, "a Variant cannot contain a scalar Variant");
            }
            return BuiltinValueReader.readScalar(this, field, type);
        }
        enter(field, -1);
        try {
            Object values = BuiltinArrayReader.readArray(this, null, type);
            int[] dims = dimensions ? readInt32Array("ArrayDimensions") : null;
            if (values == null) {
                return Variant.NULL;
            }
            return dimensions ? BuiltinValueReader.withDimensions(this, type, values, dims)
                    : Variant.ofArray(type, values);
        } finally {
            exit();
        }
    }

    /**
     * Reads a structure field of a built-in type (Part 6, 5.2.6): the counterpart of
     * {@code UaEncoder.writeField}. A scalar comes back as {@link Variant} holds it, an array as
     * {@link BuiltinType#arrayClass()} or null for length -1.
     */
    public Object readField(String field, BuiltinType type, boolean array) {
        if (array) {
            return BuiltinArrayReader.readArray(this, field, type);
        }
        return BuiltinValueReader.readScalar(this, field, type).value();
    }

    public DiagnosticInfo readDiagnosticInfo(String field) {
        return BuiltinValueReader.readDiagnosticInfo(this, field);
    }

    // ---- enumerations and structures ----------------------------------------------------------

    /** Reads an Int32 enumeration value; one that {@code fromValue} does not know is malformed. */
    public <E extends UaEnumeration> E readEnum(String field, IntFunction<E> fromValue) {
        int value = readInt32(field);
        E e = fromValue.apply(value);
        if (e == null) {
            throw malformed(field, "unknown enumeration value " + value);
        }
        return e;
    }

    /** Reads a structure's fields in place (no type id, no length). */
    public <T> T readStruct(String field, UaCodec<T> codec) {
        enter(field, -1);
        try {
            return codec.decode(this);
        } catch (IllegalArgumentException | IllegalStateException | IndexOutOfBoundsException e) {
            // A constructor refused a decoded value: report it as malformed input at this path.
            throw malformed(null, String.valueOf(e.getMessage()));
        } finally {
            exit();
        }
    }

    // ---- arrays ---------------------------------------------------------------------------------

    public boolean[] readBooleanArray(String field) {
        return BuiltinArrayReader.readBooleanArray(this, field);
    }

    public byte[] readSByteArray(String field) {
        return BuiltinArrayReader.readSByteArray(this, field);
    }

    public short[] readByteArray(String field) {
        return BuiltinArrayReader.readByteArray(this, field);
    }

    public short[] readInt16Array(String field) {
        return BuiltinArrayReader.readInt16Array(this, field);
    }

    public int[] readUInt16Array(String field) {
        return BuiltinArrayReader.readUInt16Array(this, field);
    }

    public int[] readInt32Array(String field) {
        return BuiltinArrayReader.readInt32Array(this, field);
    }

    public long[] readUInt32Array(String field) {
        return BuiltinArrayReader.readUInt32Array(this, field);
    }

    public long[] readInt64Array(String field) {
        return BuiltinArrayReader.readInt64Array(this, field);
    }

    public long[] readUInt64Array(String field) {
        return BuiltinArrayReader.readUInt64Array(this, field);
    }

    public float[] readFloatArray(String field) {
        return BuiltinArrayReader.readFloatArray(this, field);
    }

    public double[] readDoubleArray(String field) {
        return BuiltinArrayReader.readDoubleArray(this, field);
    }

    public String[] readStringArray(String field) {
        return BuiltinArrayReader.readObjectArray(this, field, BuiltinType.String, BuiltinArrayReader.NO_STRINGS);
    }

    public DateTime[] readDateTimeArray(String field) {
        return BuiltinArrayReader.readObjectArray(this, field, BuiltinType.DateTime, BuiltinArrayReader.NO_DATE_TIMES);
    }

    public UUID[] readGuidArray(String field) {
        return BuiltinArrayReader.readObjectArray(this, field, BuiltinType.Guid, BuiltinArrayReader.NO_GUIDS);
    }

    public ByteString[] readByteStringArray(String field) {
        return BuiltinArrayReader.readObjectArray(this, field, BuiltinType.ByteString,
                BuiltinArrayReader.NO_BYTE_STRINGS);
    }

    public XmlElement[] readXmlElementArray(String field) {
        return BuiltinArrayReader.readObjectArray(this, field, BuiltinType.XmlElement,
                BuiltinArrayReader.NO_XML_ELEMENTS);
    }

    public NodeId[] readNodeIdArray(String field) {
        return BuiltinArrayReader.readObjectArray(this, field, BuiltinType.NodeId, BuiltinArrayReader.NO_NODE_IDS);
    }

    public ExpandedNodeId[] readExpandedNodeIdArray(String field) {
        return BuiltinArrayReader.readObjectArray(this, field, BuiltinType.ExpandedNodeId,
                BuiltinArrayReader.NO_EXPANDED_NODE_IDS);
    }

    public StatusCode[] readStatusCodeArray(String field) {
        return BuiltinArrayReader.readObjectArray(this, field, BuiltinType.StatusCode,
                BuiltinArrayReader.NO_STATUS_CODES);
    }

    public QualifiedName[] readQualifiedNameArray(String field) {
        return BuiltinArrayReader.readObjectArray(this, field, BuiltinType.QualifiedName,
                BuiltinArrayReader.NO_QUALIFIED_NAMES);
    }

    public LocalizedText[] readLocalizedTextArray(String field) {
        return BuiltinArrayReader.readObjectArray(this, field, BuiltinType.LocalizedText,
                BuiltinArrayReader.NO_LOCALIZED_TEXTS);
    }

    public ExtensionObject[] readExtensionObjectArray(String field) {
        return BuiltinArrayReader.readObjectArray(this, field, BuiltinType.ExtensionObject,
                BuiltinArrayReader.NO_EXTENSION_OBJECTS);
    }

    public DataValue[] readDataValueArray(String field) {
        return BuiltinArrayReader.readObjectArray(this, field, BuiltinType.DataValue,
                BuiltinArrayReader.NO_DATA_VALUES);
    }

    public Variant[] readVariantArray(String field) {
        return BuiltinArrayReader.readObjectArray(this, field, BuiltinType.Variant, BuiltinArrayReader.NO_VARIANTS);
    }

    public DiagnosticInfo[] readDiagnosticInfoArray(String field) {
        return BuiltinArrayReader.readObjectArray(this, field, BuiltinType.DiagnosticInfo,
                BuiltinArrayReader.NO_DIAGNOSTIC_INFOS);
    }

    public <E extends UaEnumeration> E[] readEnumArray(String field, IntFunction<E> fromValue,
            IntFunction<E[]> newArray) {
        return BuiltinArrayReader.readEnumArray(this, field, fromValue, newArray);
    }

    public <T> T[] readStructArray(String field, UaCodec<T> codec, IntFunction<T[]> newArray) {
        // Every standard structure with fields encodes to at least one byte.
        int length = readArrayLength(field, 1);
        if (length < 0) {
            return null;
        }
        T[] values = newArray.apply(length);
        enter(field, 0);
        try {
            for (int i = 0; i < length; i++) {
                index(i);
                values[i] = codec.decode(this);
            }
        } catch (IllegalArgumentException | IllegalStateException | IndexOutOfBoundsException e) {
            throw malformed(null, String.valueOf(e.getMessage()));
        } finally {
            exit();
        }
        return values;
    }

    @Override
    public long readEncodingMask(List<String> optionalFields) {
        return readUInt32("EncodingMask");
    }

    @Override
    public long readSwitchField(List<String> fields) {
        return readUInt32("SwitchField");
    }
}
