package dev.opcua.stack.core.encoding.binary;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaCodec;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.ids.StatusCodes;
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
import java.util.Arrays;
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
 * <p>Not thread-safe; reuse one decoder per thread or channel with {@link #setBuffer}.
 */
public final class UaDecoder {

    /** Fewest bytes one encoded element of each built-in type takes, by type id; bounds array lengths. */
    private static final int[] MIN_ENCODED_BYTES = {
        1, 1, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8, 4, 8, 16, 4, 4, 2, 2, 4, 6, 1, 3, 1, 1, 1
    };

    private static final int MAX_PICOSECONDS = 9999;
    /** Type ids 26..31 are reserved; Part 6, 5.2.2.16 says to read their value as a ByteString. */
    private static final int MAX_RESERVED_TYPE_ID = 31;

    private final CodecRegistry registry;
    private final EncodingLimits limits;
    private ByteBuf buf;

    /** Levels of nested values entered, checked against maxNestingDepth. */
    private int nesting;
    /** Entries on the path stack: nested values plus array elements. */
    private int depth;
    private DateTime lastDateTime = DateTime.MIN_VALUE;
    private DateTime previousDateTime = DateTime.MIN_VALUE;
    /** Recently decoded NodeIds, when {@link #cacheNodeIds()} was called; null otherwise. */
    private NodeIdCache nodeIds;
    private String[] pathFields = new String[8];
    private int[] pathIndexes = new int[8];

    public UaDecoder(CodecRegistry registry, EncodingLimits limits) {
        this.registry = registry;
        this.limits = limits;
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
        this.buf = buf;
        this.depth = 0;
        this.nesting = 0;
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

    // ---- failures ----------------------------------------------------------------------------

    private UaEncodingException failure(int status, String field, String detail) {
        StringBuilder sb = new StringBuilder(64);
        for (int i = 0; i < depth; i++) {
            // Unnamed levels (a value inside an indexed array) show only their index, if any.
            if (pathFields[i] != null) {
                if (sb.length() > 0) {
                    sb.append('.');
                }
                sb.append(pathFields[i]);
            }
            if (pathIndexes[i] >= 0) {
                sb.append('[').append(pathIndexes[i]).append(']');
            }
        }
        if (field != null) {
            if (sb.length() > 0) {
                sb.append('.');
            }
            sb.append(field);
        }
        return new UaEncodingException(status, sb + ": " + detail);
    }

    private UaEncodingException malformed(String field, String detail) {
        return failure(StatusCodes.BadDecodingError, field, detail);
    }

    private UaEncodingException overLimit(String field, String detail) {
        return failure(StatusCodes.BadEncodingLimitsExceeded, field, detail);
    }

    private void need(String field, int bytes) {
        int remaining = buf.readableBytes();
        if (remaining < bytes) {
            throw malformed(field, "needs " + bytes + " bytes but only " + remaining + " remain");
        }
    }

    /**
     * Enters a nested value (structure, Variant, DataValue, ExtensionObject body, DiagnosticInfo):
     * checks the nesting limit and records the field for error paths.
     */
    private void enter(String field, int index) {
        if (nesting >= limits.maxNestingDepth()) {
            throw overLimit(field, "nesting depth exceeds MaxEncodingNestingLevels " + limits.maxNestingDepth());
        }
        nesting++;
        push(field, index);
    }

    private void exit() {
        nesting--;
        depth--;
    }

    /** Records an array's elements on the path; arrays themselves are no nesting level. */
    private void push(String field, int index) {
        if (depth == pathFields.length) {
            pathFields = Arrays.copyOf(pathFields, depth * 2);
            pathIndexes = Arrays.copyOf(pathIndexes, depth * 2);
        }
        pathFields[depth] = field;
        pathIndexes[depth] = index;
        depth++;
    }

    private void pop() {
        depth--;
    }

    /**
     * Reads an Int32 length and checks it: -1 is null (returned as -1), other negative values are
     * malformed, values above {@code limit} exceed it, and values whose elements cannot fit in the
     * remaining bytes are truncated input.
     */
    private int readLength(String field, int limit, String limitName, int minElementBytes) {
        need(field, 4);
        int length = buf.readIntLE();
        if (length < 0) {
            if (length == -1) {
                return -1;
            }
            throw malformed(field, "negative length " + length);
        }
        if (length > limit) {
            throw overLimit(field, "length " + length + " exceeds " + limitName + " " + limit);
        }
        long needed = (long) length * minElementBytes;
        if (needed > buf.readableBytes()) {
            throw malformed(field, "length " + length + " needs at least " + needed + " bytes but only "
                    + buf.readableBytes() + " remain");
        }
        return length;
    }

    private int readArrayLength(String field, int minElementBytes) {
        return readLength(field, limits.maxArrayLength(), "MaxArrayLength", minElementBytes);
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
            throw malformed(field, String.format("NodeId encoding byte 0x%02X has ExpandedNodeId flags", encoding));
        }
        return readNodeIdBody(field, encoding);
    }

    private NodeId readNodeIdBody(String field, int encoding) {
        if (nodeIds == null || (encoding & 0x3F) < 0x01 || (encoding & 0x3F) > 0x05) {
            return decodeNodeIdBody(field, encoding);
        }
        int length = encodedNodeIdLength(encoding & 0x3F);
        if (length < 0) {
            return decodeNodeIdBody(field, encoding);
        }
        int hash = NodeIdCache.hash(buf, encoding & 0x3F, length);
        NodeId cached = nodeIds.find(buf, hash, length);
        if (cached != null) {
            buf.skipBytes(length);
            return cached;
        }
        NodeId decoded = decodeNodeIdBody(field, encoding);
        nodeIds.offer(buf, hash, length, decoded);
        return decoded;
    }

    /**
     * Bytes of a NodeId's body after its encoding byte when they are all in the buffer and few enough to
     * cache, else -1 (then it is decoded as usual, with the usual checks and errors).
     */
    private int encodedNodeIdLength(int encoding) {
        int remaining = buf.readableBytes();
        int length;
        switch (encoding) {
            case 0x01 -> length = 3;
            case 0x02 -> length = 6;
            case 0x04 -> length = 18;
            default -> { // String or ByteString identifier: namespace, Int32 length, bytes
                if (remaining < 6) {
                    return -1;
                }
                int bytes = buf.getIntLE(buf.readerIndex() + 2);
                if (bytes < 0 || bytes > NodeIdCache.MAX_BYTES - 6) {
                    return -1;
                }
                length = 6 + bytes;
            }
        }
        return length <= remaining ? length : -1;
    }

    private NodeId decodeNodeIdBody(String field, int encoding) {
        switch (encoding & 0x3F) {
            case 0x00:
                need(field, 1);
                return NodeId.ns0(buf.readUnsignedByte());
            case 0x01: {
                need(field, 3);
                int ns = buf.readUnsignedByte();
                int id = buf.readUnsignedShortLE();
                return ns == 0 ? NodeId.ns0(id) : NodeId.numeric(ns, id);
            }
            case 0x02: {
                need(field, 6);
                int ns = buf.readUnsignedShortLE();
                long id = buf.readUnsignedIntLE();
                return NodeId.numeric(ns, id);
            }
            case 0x03: {
                int ns = readUInt16(field);
                return NodeId.string(ns, readString(field));
            }
            case 0x04: {
                int ns = readUInt16(field);
                return NodeId.guid(ns, readGuid(field));
            }
            case 0x05: {
                int ns = readUInt16(field);
                return NodeId.opaque(ns, readByteString(field));
            }
            default:
                throw malformed(field, String.format("invalid NodeId encoding byte 0x%02X", encoding));
        }
    }

    public ExpandedNodeId readExpandedNodeId(String field) {
        need(field, 1);
        int encoding = buf.readUnsignedByte();
        NodeId nodeId = readNodeIdBody(field, encoding);
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
                return readBinaryBody(field, typeId);
            case 0x02:
                return ExtensionObject.ofXml(typeId, readXmlElement(field));
            default:
                throw malformed(field, String.format("invalid ExtensionObject encoding byte 0x%02X", encoding));
        }
    }

    private ExtensionObject readBinaryBody(String field, NodeId typeId) {
        UaCodec<?> codec = registry.codecForEncodingId(typeId);
        if (codec == null) {
            return ExtensionObject.ofBinary(typeId, readByteString(field));
        }
        int length = readLength(field, limits.maxByteStringLength(), "MaxByteStringLength", 1);
        if (length < 0) {
            return ExtensionObject.ofBinary(typeId, ByteString.NULL);
        }
        int end = buf.readerIndex() + length;
        int savedWriterIndex = buf.writerIndex();
        // Bound the body by its length without slicing (a slice would allocate): lower the writer index.
        buf.writerIndex(end);
        Object body;
        try {
            body = readStruct(field, codec);
        } finally {
            buf.writerIndex(savedWriterIndex);
        }
        buf.readerIndex(end);
        return ExtensionObject.of((UaStructure) body);
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
            return readScalarVariant(field, type);
        }
        enter(field, -1);
        try {
            Object values = readArrayOf(null, type);
            int[] dims = dimensions ? readInt32Array("ArrayDimensions") : null;
            if (values == null) {
                return Variant.NULL;
            }
            return dimensions ? withDimensions(type, values, dims) : Variant.ofArray(type, values);
        } finally {
            exit();
        }
    }

    private Variant withDimensions(BuiltinType type, Object values, int[] dims) {
        int length = java.lang.reflect.Array.getLength(values);
        if (dims == null || dims.length == 0) {
            throw malformed("ArrayDimensions", "are missing although the mask says they are present");
        }
        long product = 1;
        for (int d : dims) {
            if (d < 0) {
                throw malformed("ArrayDimensions", "dimension " + d + " is negative");
            }
            // Cap the product above any array length so it cannot overflow; a later 0 still zeroes it.
            product = Math.min(product * d, Integer.MAX_VALUE + 1L);
        }
        if (product != length) {
            throw malformed("ArrayDimensions", Arrays.toString(dims) + " do not match the array length " + length);
        }
        return dims.length == 1 ? Variant.ofArray(type, values) : Variant.ofMatrix(type, values, dims);
    }

    /**
     * Reads a structure field of a built-in type (Part 6, 5.2.6): the counterpart of
     * {@code UaEncoder.writeField}. A scalar comes back as {@link Variant} holds it, an array as
     * {@link BuiltinType#arrayClass()} or null for length -1.
     */
    public Object readField(String field, BuiltinType type, boolean array) {
        if (array) {
            return readArrayOf(field, type);
        }
        return readScalarVariant(field, type).value();
    }

    private Variant readScalarVariant(String field, BuiltinType type) {
        switch (type) {
            case Boolean:
                return Variant.ofBoolean(readBoolean(field));
            case SByte:
                return Variant.ofSByte(readSByte(field));
            case Byte:
                return Variant.ofByte(readByte(field));
            case Int16:
                return Variant.ofInt16(readInt16(field));
            case UInt16:
                return Variant.ofUInt16(readUInt16(field));
            case Int32:
                return Variant.ofInt32(readInt32(field));
            case UInt32:
                return Variant.ofUInt32(readUInt32(field));
            case Int64:
                return Variant.ofInt64(readInt64(field));
            case UInt64:
                return Variant.ofUInt64(readUInt64(field));
            case Float:
                return Variant.ofFloat(readFloat(field));
            case Double:
                return Variant.ofDouble(readDouble(field));
            default:
                enter(field, -1);
                try {
                    return Variant.ofScalar(type, readObject(null, type));
                } finally {
                    exit();
                }
        }
    }

    private Object readObject(String field, BuiltinType type) {
        switch (type) {
            case String:
                return readString(field);
            case DateTime:
                return readDateTime(field);
            case Guid:
                return readGuid(field);
            case ByteString:
                return readByteString(field);
            case XmlElement:
                return readXmlElement(field);
            case NodeId:
                return readNodeId(field);
            case ExpandedNodeId:
                return readExpandedNodeId(field);
            case StatusCode:
                return readStatusCode(field);
            case QualifiedName:
                return readQualifiedName(field);
            case LocalizedText:
                return readLocalizedText(field);
            case ExtensionObject:
                return readExtensionObject(field);
            case DataValue:
                return readDataValue(field);
            case Variant:
                return readVariant(field);
            case DiagnosticInfo:
                return readDiagnosticInfo(field);
            default:
                throw malformed(field, "cannot read " + type + " as an object");
        }
    }

    private Object readArrayOf(String field, BuiltinType type) {
        switch (type) {
            case Boolean:
                return readBooleanArray(field);
            case SByte:
                return readSByteArray(field);
            case Byte:
                return readByteArray(field);
            case Int16:
                return readInt16Array(field);
            case UInt16:
                return readUInt16Array(field);
            case Int32:
                return readInt32Array(field);
            case UInt32:
                return readUInt32Array(field);
            case Int64:
                return readInt64Array(field);
            case UInt64:
                return readUInt64Array(field);
            case Float:
                return readFloatArray(field);
            case Double:
                return readDoubleArray(field);
            default:
                return readObjectArray(field, type, emptyArrayOf(type));
        }
    }

    /** Reads an array of a non-numeric built-in type; {@code prototype} is an empty array of the element class. */
    @SuppressWarnings("unchecked")
    private <T> T[] readObjectArray(String field, BuiltinType type, T[] prototype) {
        int length = readArrayLength(field, MIN_ENCODED_BYTES[type.typeId()]);
        if (length < 0) {
            return null;
        }
        T[] values = length == 0 ? prototype : Arrays.copyOf(prototype, length);
        push(field, 0);
        try {
            for (int i = 0; i < length; i++) {
                pathIndexes[depth - 1] = i;
                values[i] = (T) readObject(null, type);
            }
        } finally {
            pop();
        }
        return values;
    }

    public DiagnosticInfo readDiagnosticInfo(String field) {
        need(field, 1);
        int mask = buf.readUnsignedByte();
        if (mask == 0) {
            return DiagnosticInfo.NULL;
        }
        enter(field, -1);
        try {
            int symbolicId = (mask & 0x01) != 0 ? readInt32("SymbolicId") : -1;
            int namespaceUri = (mask & 0x02) != 0 ? readInt32("NamespaceUri") : -1;
            int locale = (mask & 0x08) != 0 ? readInt32("Locale") : -1;
            int localizedText = (mask & 0x04) != 0 ? readInt32("LocalizedText") : -1;
            String additionalInfo = (mask & 0x10) != 0 ? readString("AdditionalInfo") : null;
            StatusCode innerStatus = (mask & 0x20) != 0 ? readStatusCode("InnerStatusCode") : null;
            DiagnosticInfo inner = (mask & 0x40) != 0 ? readDiagnosticInfo("InnerDiagnosticInfo") : null;
            return DiagnosticInfo.of(symbolicId, namespaceUri, locale, localizedText, additionalInfo, innerStatus, inner);
        } finally {
            exit();
        }
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
        int length = readArrayLength(field, 1);
        if (length < 0) {
            return null;
        }
        boolean[] values = new boolean[length];
        for (int i = 0; i < length; i++) {
            values[i] = buf.readByte() != 0;
        }
        return values;
    }

    public byte[] readSByteArray(String field) {
        int length = readArrayLength(field, 1);
        if (length < 0) {
            return null;
        }
        byte[] values = new byte[length];
        buf.readBytes(values);
        return values;
    }

    public short[] readByteArray(String field) {
        int length = readArrayLength(field, 1);
        if (length < 0) {
            return null;
        }
        short[] values = new short[length];
        for (int i = 0; i < length; i++) {
            values[i] = buf.readUnsignedByte();
        }
        return values;
    }

    public short[] readInt16Array(String field) {
        int length = readArrayLength(field, 2);
        if (length < 0) {
            return null;
        }
        short[] values = new short[length];
        for (int i = 0; i < length; i++) {
            values[i] = buf.readShortLE();
        }
        return values;
    }

    public int[] readUInt16Array(String field) {
        int length = readArrayLength(field, 2);
        if (length < 0) {
            return null;
        }
        int[] values = new int[length];
        for (int i = 0; i < length; i++) {
            values[i] = buf.readUnsignedShortLE();
        }
        return values;
    }

    public int[] readInt32Array(String field) {
        int length = readArrayLength(field, 4);
        if (length < 0) {
            return null;
        }
        int[] values = new int[length];
        for (int i = 0; i < length; i++) {
            values[i] = buf.readIntLE();
        }
        return values;
    }

    public long[] readUInt32Array(String field) {
        int length = readArrayLength(field, 4);
        if (length < 0) {
            return null;
        }
        long[] values = new long[length];
        for (int i = 0; i < length; i++) {
            values[i] = buf.readUnsignedIntLE();
        }
        return values;
    }

    public long[] readInt64Array(String field) {
        int length = readArrayLength(field, 8);
        if (length < 0) {
            return null;
        }
        long[] values = new long[length];
        for (int i = 0; i < length; i++) {
            values[i] = buf.readLongLE();
        }
        return values;
    }

    public long[] readUInt64Array(String field) {
        return readInt64Array(field);
    }

    public float[] readFloatArray(String field) {
        int length = readArrayLength(field, 4);
        if (length < 0) {
            return null;
        }
        float[] values = new float[length];
        for (int i = 0; i < length; i++) {
            values[i] = buf.readFloatLE();
        }
        return values;
    }

    public double[] readDoubleArray(String field) {
        int length = readArrayLength(field, 8);
        if (length < 0) {
            return null;
        }
        double[] values = new double[length];
        for (int i = 0; i < length; i++) {
            values[i] = buf.readDoubleLE();
        }
        return values;
    }

    private static final String[] NO_STRINGS = {};
    private static final DateTime[] NO_DATE_TIMES = {};
    private static final UUID[] NO_GUIDS = {};
    private static final ByteString[] NO_BYTE_STRINGS = {};
    private static final XmlElement[] NO_XML_ELEMENTS = {};
    private static final NodeId[] NO_NODE_IDS = {};
    private static final ExpandedNodeId[] NO_EXPANDED_NODE_IDS = {};
    private static final StatusCode[] NO_STATUS_CODES = {};
    private static final QualifiedName[] NO_QUALIFIED_NAMES = {};
    private static final LocalizedText[] NO_LOCALIZED_TEXTS = {};
    private static final ExtensionObject[] NO_EXTENSION_OBJECTS = {};
    private static final DataValue[] NO_DATA_VALUES = {};
    private static final Variant[] NO_VARIANTS = {};
    private static final DiagnosticInfo[] NO_DIAGNOSTIC_INFOS = {};

    private static Object[] emptyArrayOf(BuiltinType type) {
        switch (type) {
            case String:
                return NO_STRINGS;
            case DateTime:
                return NO_DATE_TIMES;
            case Guid:
                return NO_GUIDS;
            case ByteString:
                return NO_BYTE_STRINGS;
            case XmlElement:
                return NO_XML_ELEMENTS;
            case NodeId:
                return NO_NODE_IDS;
            case ExpandedNodeId:
                return NO_EXPANDED_NODE_IDS;
            case StatusCode:
                return NO_STATUS_CODES;
            case QualifiedName:
                return NO_QUALIFIED_NAMES;
            case LocalizedText:
                return NO_LOCALIZED_TEXTS;
            case ExtensionObject:
                return NO_EXTENSION_OBJECTS;
            case DataValue:
                return NO_DATA_VALUES;
            case Variant:
                return NO_VARIANTS;
            default:
                return NO_DIAGNOSTIC_INFOS;
        }
    }

    public String[] readStringArray(String field) {
        return readObjectArray(field, BuiltinType.String, NO_STRINGS);
    }

    public DateTime[] readDateTimeArray(String field) {
        return readObjectArray(field, BuiltinType.DateTime, NO_DATE_TIMES);
    }

    public UUID[] readGuidArray(String field) {
        return readObjectArray(field, BuiltinType.Guid, NO_GUIDS);
    }

    public ByteString[] readByteStringArray(String field) {
        return readObjectArray(field, BuiltinType.ByteString, NO_BYTE_STRINGS);
    }

    public XmlElement[] readXmlElementArray(String field) {
        return readObjectArray(field, BuiltinType.XmlElement, NO_XML_ELEMENTS);
    }

    public NodeId[] readNodeIdArray(String field) {
        return readObjectArray(field, BuiltinType.NodeId, NO_NODE_IDS);
    }

    public ExpandedNodeId[] readExpandedNodeIdArray(String field) {
        return readObjectArray(field, BuiltinType.ExpandedNodeId, NO_EXPANDED_NODE_IDS);
    }

    public StatusCode[] readStatusCodeArray(String field) {
        return readObjectArray(field, BuiltinType.StatusCode, NO_STATUS_CODES);
    }

    public QualifiedName[] readQualifiedNameArray(String field) {
        return readObjectArray(field, BuiltinType.QualifiedName, NO_QUALIFIED_NAMES);
    }

    public LocalizedText[] readLocalizedTextArray(String field) {
        return readObjectArray(field, BuiltinType.LocalizedText, NO_LOCALIZED_TEXTS);
    }

    public ExtensionObject[] readExtensionObjectArray(String field) {
        return readObjectArray(field, BuiltinType.ExtensionObject, NO_EXTENSION_OBJECTS);
    }

    public DataValue[] readDataValueArray(String field) {
        return readObjectArray(field, BuiltinType.DataValue, NO_DATA_VALUES);
    }

    public Variant[] readVariantArray(String field) {
        return readObjectArray(field, BuiltinType.Variant, NO_VARIANTS);
    }

    public DiagnosticInfo[] readDiagnosticInfoArray(String field) {
        return readObjectArray(field, BuiltinType.DiagnosticInfo, NO_DIAGNOSTIC_INFOS);
    }

    public <E extends UaEnumeration> E[] readEnumArray(String field, IntFunction<E> fromValue, IntFunction<E[]> newArray) {
        int length = readArrayLength(field, 4);
        if (length < 0) {
            return null;
        }
        E[] values = newArray.apply(length);
        for (int i = 0; i < length; i++) {
            values[i] = readEnum(field, fromValue);
        }
        return values;
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
                pathIndexes[depth - 1] = i;
                values[i] = codec.decode(this);
            }
        } catch (IllegalArgumentException | IllegalStateException | IndexOutOfBoundsException e) {
            throw malformed(null, String.valueOf(e.getMessage()));
        } finally {
            exit();
        }
        return values;
    }
}
