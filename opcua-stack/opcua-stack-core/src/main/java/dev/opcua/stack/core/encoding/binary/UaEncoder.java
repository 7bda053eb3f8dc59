package dev.opcua.stack.core.encoding.binary;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.UaCodec;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.encoding.UaWriter;
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
import io.netty.buffer.ByteBufUtil;
import java.util.UUID;

/**
 * Writes values in UA Binary (Part 6, 5.2) into a Netty {@link ByteBuf}, little-endian.
 *
 * <p>Not thread-safe; meant to be reused: one encoder per thread or per channel, pointed at the next
 * buffer with {@link #setBuffer}. Writing allocates nothing on the heap besides what the buffer
 * needs to grow: no boxing, no temporary arrays, strings written straight as UTF-8.
 *
 * <p>The {@code field} argument of every write names the field for error messages (and for other
 * encodings that write names); UA Binary does not put it on the wire.
 *
 * <p>This class holds the encoder's state, the public writes and the writes of fixed layout. It hands the
 * rest to package-private writers that write through its buffer: {@code BuiltinValueWriter} (Variant values
 * by type, DiagnosticInfos) and {@code BuiltinArrayWriter} (arrays of built-in types and enumerations).
 */
public final class UaEncoder implements UaWriter {

    private final CodecRegistry registry;
    /** Package-private for the writers this class hands work to: they write through it as this class does. */
    ByteBuf buf;

    public UaEncoder(CodecRegistry registry) {
        this.registry = registry;
    }

    public UaEncoder(CodecRegistry registry, ByteBuf buf) {
        this.registry = registry;
        this.buf = buf;
    }

    /** Points this encoder at the buffer to write to next. */
    public UaEncoder setBuffer(ByteBuf buf) {
        this.buf = buf;
        return this;
    }

    public ByteBuf buffer() {
        return buf;
    }

    public CodecRegistry registry() {
        return registry;
    }

    /**
     * Writes a service message: the NodeId of its binary encoding followed by its body (Part 6, 5.2.6
     * and 7.1.2.4).
     */
    public void writeMessage(UaStructure message) {
        UaCodec<UaStructure> codec = codecFor(message);
        writeNodeId("TypeId", codec.encodingId());
        codec.encode(this, message);
    }

    // ---- primitives (Part 6, 5.2.2.1 - 5.2.2.3) -------------------------------------------------

    public void writeBoolean(String field, boolean value) {
        buf.writeByte(value ? 1 : 0);
    }

    public void writeSByte(String field, byte value) {
        buf.writeByte(value);
    }

    /** @param value 0..255 (only the low 8 bits are written) */
    public void writeByte(String field, short value) {
        buf.writeByte(value);
    }

    public void writeInt16(String field, short value) {
        buf.writeShortLE(value);
    }

    /** @param value 0..65535 (only the low 16 bits are written) */
    public void writeUInt16(String field, int value) {
        buf.writeShortLE(value);
    }

    public void writeInt32(String field, int value) {
        buf.writeIntLE(value);
    }

    /** @param value 0..2^32-1 (only the low 32 bits are written) */
    public void writeUInt32(String field, long value) {
        buf.writeIntLE((int) value);
    }

    public void writeInt64(String field, long value) {
        buf.writeLongLE(value);
    }

    /** @param value the bits of the unsigned value */
    public void writeUInt64(String field, long value) {
        buf.writeLongLE(value);
    }

    public void writeFloat(String field, float value) {
        buf.writeFloatLE(value);
    }

    public void writeDouble(String field, double value) {
        buf.writeDoubleLE(value);
    }

    // ---- strings, times, guids, bytes (Part 6, 5.2.2.4 - 5.2.2.8) ------------------------------

    /** Writes an Int32 byte length (-1 for null) and the UTF-8 bytes. */
    public void writeString(String field, String value) {
        if (value == null) {
            buf.writeIntLE(-1);
            return;
        }
        int length = ByteBufUtil.utf8Bytes(value);
        buf.writeIntLE(length);
        ByteBufUtil.reserveAndWriteUtf8(buf, value, length);
    }

    /** Writes the 100 ns ticks since 1601; null is written as 0, "no time" (Part 6, 5.2.2.5). */
    public void writeDateTime(String field, DateTime value) {
        buf.writeLongLE(value == null ? 0L : value.utcTicks());
    }

    /** Data1 (UInt32), Data2 and Data3 (UInt16) little-endian, then Data4 as 8 bytes (Part 6, 5.2.2.6). */
    public void writeGuid(String field, UUID value) {
        long msb = value == null ? 0L : value.getMostSignificantBits();
        long lsb = value == null ? 0L : value.getLeastSignificantBits();
        buf.writeIntLE((int) (msb >>> 32));
        buf.writeShortLE((int) (msb >>> 16));
        buf.writeShortLE((int) msb);
        buf.writeLong(lsb);
    }

    public void writeByteString(String field, ByteString value) {
        byte[] bytes = value == null ? null : value.unsafeBytes();
        if (bytes == null) {
            buf.writeIntLE(-1);
        } else {
            buf.writeIntLE(bytes.length);
            buf.writeBytes(bytes);
        }
    }

    public void writeXmlElement(String field, XmlElement value) {
        writeString(field, value == null ? null : value.fragment());
    }

    // ---- identifiers and names (Part 6, 5.2.2.9 - 5.2.2.14) -----------------------------------

    public void writeNodeId(String field, NodeId value) {
        writeNodeIdWithFlags(value == null ? NodeId.NULL : value, 0);
    }

    private void writeNodeIdWithFlags(NodeId id, int flags) {
        int ns = id.namespaceIndex();
        switch (id.idType()) {
            case Numeric:
                long numeric = id.numericId();
                if (ns == 0 && numeric <= 0xFF) {
                    buf.writeByte(0x00 | flags);
                    buf.writeByte((int) numeric);
                } else if (ns <= 0xFF && numeric <= 0xFFFF) {
                    buf.writeByte(0x01 | flags);
                    buf.writeByte(ns);
                    buf.writeShortLE((int) numeric);
                } else {
                    buf.writeByte(0x02 | flags);
                    buf.writeShortLE(ns);
                    buf.writeIntLE((int) numeric);
                }
                break;
            case String:
                buf.writeByte(0x03 | flags);
                buf.writeShortLE(ns);
                writeString(null, id.stringId());
                break;
            case Guid:
                buf.writeByte(0x04 | flags);
                buf.writeShortLE(ns);
                writeGuid(null, (UUID) id.identifier());
                break;
            default:
                buf.writeByte(0x05 | flags);
                buf.writeShortLE(ns);
                writeByteString(null, (ByteString) id.identifier());
        }
    }

    public void writeExpandedNodeId(String field, ExpandedNodeId value) {
        ExpandedNodeId id = value == null ? ExpandedNodeId.NULL : value;
        String uri = id.namespaceUri();
        long serverIndex = id.serverIndex();
        // ExpandedNodeId.of already normalises: with a URI the namespace index is 0, an empty URI is none.
        writeNodeIdWithFlags(id.nodeId(), (uri != null ? 0x80 : 0) | (serverIndex != 0 ? 0x40 : 0));
        if (uri != null) {
            writeString(field, uri);
        }
        if (serverIndex != 0) {
            buf.writeIntLE((int) serverIndex);
        }
    }

    public void writeStatusCode(String field, StatusCode value) {
        buf.writeIntLE(value == null ? 0 : value.value());
    }

    public void writeQualifiedName(String field, QualifiedName value) {
        QualifiedName name = value == null ? QualifiedName.NULL : value;
        buf.writeShortLE(name.namespaceIndex());
        writeString(field, name.name());
    }

    public void writeLocalizedText(String field, LocalizedText value) {
        String locale = value == null ? null : value.locale();
        String text = value == null ? null : value.text();
        buf.writeByte((locale != null ? 0x01 : 0) | (text != null ? 0x02 : 0));
        if (locale != null) {
            writeString(field, locale);
        }
        if (text != null) {
            writeString(field, text);
        }
    }

    // ---- containers (Part 6, 5.2.2.12, 5.2.2.15 - 5.2.2.17) -------------------------------------

    public void writeExtensionObject(String field, ExtensionObject value) {
        ExtensionObject eo = value == null ? ExtensionObject.NULL : value;
        writeNodeId(field, eo.encodingId());
        switch (eo.bodyType()) {
            case None:
                buf.writeByte(0x00);
                break;
            case XmlElement:
                buf.writeByte(0x02);
                writeXmlElement(field, eo.xmlBody());
                break;
            default:
                buf.writeByte(0x01);
                UaStructure structure = eo.decoded();
                if (structure == null) {
                    writeByteString(field, eo.rawBody());
                } else {
                    UaCodec<UaStructure> codec = codecFor(structure);
                    int lengthIndex = buf.writerIndex();
                    buf.writeIntLE(0);
                    codec.encode(this, structure);
                    buf.setIntLE(lengthIndex, buf.writerIndex() - lengthIndex - 4);
                }
        }
    }

    @SuppressWarnings("unchecked")
    private UaCodec<UaStructure> codecFor(UaStructure structure) {
        UaCodec<?> codec = registry.codecForEncodingId(structure.binaryEncodingId());
        if (codec == null || !codec.type().isInstance(structure)) {
            codec = registry.codecForType(structure.getClass());
        }
        if (codec == null) {
            throw UaEncodingException.encodingError("no codec registered for " + structure.getClass().getName()
                    + " (encoding " + structure.binaryEncodingId() + ")");
        }
        return (UaCodec<UaStructure>) codec;
    }

    public void writeDataValue(String field, DataValue value) {
        if (value == null) {
            buf.writeByte(0);
            return;
        }
        Variant v = value.value();
        StatusCode status = value.statusCode();
        DateTime source = value.sourceTimestamp();
        DateTime server = value.serverTimestamp();
        int sourcePico = value.sourcePicoseconds();
        int serverPico = value.serverPicoseconds();
        int mask = (v.isNull() ? 0 : 0x01) | (status.value() != 0 ? 0x02 : 0) | (source != null ? 0x04 : 0)
                | (server != null ? 0x08 : 0) | (sourcePico != 0 ? 0x10 : 0) | (serverPico != 0 ? 0x20 : 0);
        buf.writeByte(mask);
        if ((mask & 0x01) != 0) {
            writeVariant(field, v);
        }
        if ((mask & 0x02) != 0) {
            buf.writeIntLE(status.value());
        }
        if ((mask & 0x04) != 0) {
            buf.writeLongLE(source.utcTicks());
        }
        if ((mask & 0x10) != 0) {
            buf.writeShortLE(sourcePico);
        }
        if ((mask & 0x08) != 0) {
            buf.writeLongLE(server.utcTicks());
        }
        if ((mask & 0x20) != 0) {
            buf.writeShortLE(serverPico);
        }
    }

    public void writeVariant(String field, Variant value) {
        if (value == null || value.isNull()) {
            buf.writeByte(0);
            return;
        }
        BuiltinType type = value.type();
        Object v = value.value();
        if (!value.isArray()) {
            buf.writeByte(type.typeId());
            BuiltinValueWriter.writeScalar(this, field, type, v);
            return;
        }
        boolean matrix = value.isMatrix();
        buf.writeByte(type.typeId() | 0x80 | (matrix ? 0x40 : 0));
        BuiltinArrayWriter.writeArray(this, field, type, v);
        if (matrix) {
            BuiltinArrayWriter.writeInt32Array(this, field, value.arrayDimensions());
        }
    }

    /**
     * Writes a structure field of a built-in type as Part 6, 5.2.6 lays it out: a scalar as itself
     * (no Variant mask), an array as its Int32 length and elements (5.2.5), null as length -1.
     *
     * @param value a scalar as {@link Variant} holds it ({@link BuiltinType#scalarClass()}), or an array of
     *     {@link BuiltinType#arrayClass()}
     */
    public void writeField(String field, BuiltinType type, Object value, boolean array) {
        if (array) {
            BuiltinArrayWriter.writeArray(this, field, type, value);
        } else {
            BuiltinValueWriter.writeScalar(this, field, type, value);
        }
    }

    public void writeDiagnosticInfo(String field, DiagnosticInfo value) {
        BuiltinValueWriter.writeDiagnosticInfo(this, field, value);
    }

    // ---- enumerations and structures (Part 6, 5.2.4 and 5.2.6) ---------------------------------

    public void writeEnum(String field, UaEnumeration value) {
        if (value == null) {
            throw UaEncodingException.encodingError("field " + field + ": enumeration value is null");
        }
        buf.writeIntLE(value.value());
    }

    /** Writes a structure's fields in place (no type id, no length), as fields of structure type are. */
    public <T> void writeStruct(String field, T value, UaCodec<T> codec) {
        if (value == null) {
            throw UaEncodingException.encodingError("field " + field + ": structure " + codec.type().getSimpleName()
                    + " is null");
        }
        codec.encode(this, value);
    }

    // ---- arrays (Part 6, 5.2.5): Int32 length, -1 for null, then the elements -----------------

    public void writeBooleanArray(String field, boolean[] values) {
        BuiltinArrayWriter.writeBooleanArray(this, field, values);
    }

    public void writeSByteArray(String field, byte[] values) {
        BuiltinArrayWriter.writeSByteArray(this, field, values);
    }

    public void writeByteArray(String field, short[] values) {
        BuiltinArrayWriter.writeByteArray(this, field, values);
    }

    public void writeInt16Array(String field, short[] values) {
        BuiltinArrayWriter.writeInt16Array(this, field, values);
    }

    public void writeUInt16Array(String field, int[] values) {
        BuiltinArrayWriter.writeUInt16Array(this, field, values);
    }

    public void writeInt32Array(String field, int[] values) {
        BuiltinArrayWriter.writeInt32Array(this, field, values);
    }

    public void writeUInt32Array(String field, long[] values) {
        BuiltinArrayWriter.writeUInt32Array(this, field, values);
    }

    public void writeInt64Array(String field, long[] values) {
        BuiltinArrayWriter.writeInt64Array(this, field, values);
    }

    public void writeUInt64Array(String field, long[] values) {
        BuiltinArrayWriter.writeUInt64Array(this, field, values);
    }

    public void writeFloatArray(String field, float[] values) {
        BuiltinArrayWriter.writeFloatArray(this, field, values);
    }

    public void writeDoubleArray(String field, double[] values) {
        BuiltinArrayWriter.writeDoubleArray(this, field, values);
    }

    public void writeStringArray(String field, String[] values) {
        BuiltinArrayWriter.writeObjectArray(this, field, BuiltinType.String, values);
    }

    public void writeDateTimeArray(String field, DateTime[] values) {
        BuiltinArrayWriter.writeObjectArray(this, field, BuiltinType.DateTime, values);
    }

    public void writeGuidArray(String field, UUID[] values) {
        BuiltinArrayWriter.writeObjectArray(this, field, BuiltinType.Guid, values);
    }

    public void writeByteStringArray(String field, ByteString[] values) {
        BuiltinArrayWriter.writeObjectArray(this, field, BuiltinType.ByteString, values);
    }

    public void writeXmlElementArray(String field, XmlElement[] values) {
        BuiltinArrayWriter.writeObjectArray(this, field, BuiltinType.XmlElement, values);
    }

    public void writeNodeIdArray(String field, NodeId[] values) {
        BuiltinArrayWriter.writeObjectArray(this, field, BuiltinType.NodeId, values);
    }

    public void writeExpandedNodeIdArray(String field, ExpandedNodeId[] values) {
        BuiltinArrayWriter.writeObjectArray(this, field, BuiltinType.ExpandedNodeId, values);
    }

    public void writeStatusCodeArray(String field, StatusCode[] values) {
        BuiltinArrayWriter.writeObjectArray(this, field, BuiltinType.StatusCode, values);
    }

    public void writeQualifiedNameArray(String field, QualifiedName[] values) {
        BuiltinArrayWriter.writeObjectArray(this, field, BuiltinType.QualifiedName, values);
    }

    public void writeLocalizedTextArray(String field, LocalizedText[] values) {
        BuiltinArrayWriter.writeObjectArray(this, field, BuiltinType.LocalizedText, values);
    }

    public void writeExtensionObjectArray(String field, ExtensionObject[] values) {
        BuiltinArrayWriter.writeObjectArray(this, field, BuiltinType.ExtensionObject, values);
    }

    public void writeDataValueArray(String field, DataValue[] values) {
        BuiltinArrayWriter.writeObjectArray(this, field, BuiltinType.DataValue, values);
    }

    public void writeVariantArray(String field, Variant[] values) {
        BuiltinArrayWriter.writeObjectArray(this, field, BuiltinType.Variant, values);
    }

    public void writeDiagnosticInfoArray(String field, DiagnosticInfo[] values) {
        BuiltinArrayWriter.writeObjectArray(this, field, BuiltinType.DiagnosticInfo, values);
    }

    public void writeEnumArray(String field, UaEnumeration[] values) {
        BuiltinArrayWriter.writeEnumArray(this, field, values);
    }

    public <T> void writeStructArray(String field, T[] values, UaCodec<T> codec) {
        if (values == null) {
            buf.writeIntLE(-1);
            return;
        }
        buf.writeIntLE(values.length);
        for (T v : values) {
            writeStruct(field, v, codec);
        }
    }

    @Override
    public void writeEncodingMask(long mask) {
        writeUInt32("EncodingMask", mask);
    }

    @Override
    public void writeSwitchField(long switchField) {
        writeUInt32("SwitchField", switchField);
    }
}
