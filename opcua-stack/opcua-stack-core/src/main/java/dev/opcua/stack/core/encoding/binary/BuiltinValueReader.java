package dev.opcua.stack.core.encoding.binary;

import dev.opcua.stack.core.encoding.UaCodec;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DiagnosticInfo;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * Reads the built-in values whose content the encoding chooses as it goes (Part 6, 5.2.2): the value of a
 * Variant or of a built-in structure field by its built-in type id (5.2.2.16), the body of an
 * ExtensionObject by its encoding id (5.2.2.15), a DiagnosticInfo's fields by its mask (5.2.2.12); and
 * checks a Variant's ArrayDimensions against its array.
 *
 * <p>Static methods that read the {@link UaDecoder}'s own fields, not an object of their own: every message
 * goes through here, and this way a read costs no extra object, field load or virtual call.
 */
final class BuiltinValueReader {

    private BuiltinValueReader() {
    }

    /** Reads a scalar of {@code type} into a Variant; a numeric one without boxing it first. */
    static Variant readScalar(UaDecoder d, String field, BuiltinType type) {
        switch (type) {
            case Boolean:
                return Variant.ofBoolean(d.readBoolean(field));
            case SByte:
                return Variant.ofSByte(d.readSByte(field));
            case Byte:
                return Variant.ofByte(d.readByte(field));
            case Int16:
                return Variant.ofInt16(d.readInt16(field));
            case UInt16:
                return Variant.ofUInt16(d.readUInt16(field));
            case Int32:
                return Variant.ofInt32(d.readInt32(field));
            case UInt32:
                return Variant.ofUInt32(d.readUInt32(field));
            case Int64:
                return Variant.ofInt64(d.readInt64(field));
            case UInt64:
                return Variant.ofUInt64(d.readUInt64(field));
            case Float:
                return Variant.ofFloat(d.readFloat(field));
            case Double:
                return Variant.ofDouble(d.readDouble(field));
            default:
                d.enter(field, -1);
                try {
                    return Variant.ofScalar(type, readObject(d, null, type));
                } finally {
                    d.exit();
                }
        }
    }

    /** Reads one value of a non-numeric built-in type. */
    static Object readObject(UaDecoder d, String field, BuiltinType type) {
        switch (type) {
            case String:
                return d.readString(field);
            case DateTime:
                return d.readDateTime(field);
            case Guid:
                return d.readGuid(field);
            case ByteString:
                return d.readByteString(field);
            case XmlElement:
                return d.readXmlElement(field);
            case NodeId:
                return d.readNodeId(field);
            case ExpandedNodeId:
                return d.readExpandedNodeId(field);
            case StatusCode:
                return d.readStatusCode(field);
            case QualifiedName:
                return d.readQualifiedName(field);
            case LocalizedText:
                return d.readLocalizedText(field);
            case ExtensionObject:
                return d.readExtensionObject(field);
            case DataValue:
                return d.readDataValue(field);
            case Variant:
                return d.readVariant(field);
            case DiagnosticInfo:
                return d.readDiagnosticInfo(field);
            default:
                throw d.malformed(field, "cannot read " + type + " as an object");
        }
    }

    /**
     * A Variant of the array {@code values} shaped by {@code dims} (Part 6, 5.2.2.16): the dimensions must
     * be present, none negative, and their product the array's length. One dimension is a plain array.
     */
    static Variant withDimensions(UaDecoder d, BuiltinType type, Object values, int[] dims) {
        int length = java.lang.reflect.Array.getLength(values);
        if (dims == null || dims.length == 0) {
            throw d.malformed("ArrayDimensions", "are missing although the mask says they are present");
        }
        long product = 1;
        for (int dimension : dims) {
            if (dimension < 0) {
                throw d.malformed("ArrayDimensions", "dimension " + dimension + " is negative");
            }
            // Cap the product above any array length so it cannot overflow; a later 0 still zeroes it.
            product = Math.min(product * dimension, Integer.MAX_VALUE + 1L);
        }
        if (product != length) {
            throw d.malformed("ArrayDimensions",
                    Arrays.toString(dims) + " do not match the array length " + length);
        }
        return dims.length == 1 ? Variant.ofArray(type, values) : Variant.ofMatrix(type, values, dims);
    }

    /**
     * Reads the binary body of an ExtensionObject (after its encoding byte): decoded when its encoding id
     * has a registered codec, bounded by its length (bytes a newer peer appended are skipped); kept as raw
     * bytes when not.
     */
    static ExtensionObject readExtensionObjectBody(UaDecoder d, String field, NodeId typeId) {
        UaCodec<?> codec = d.registry().codecForEncodingId(typeId);
        if (codec == null) {
            return ExtensionObject.ofBinary(typeId, d.readByteString(field));
        }
        // A body decoded as a structure is bounded by the message it is in and by the limits on its own fields,
        // not by MaxByteStringLength, which bounds opaque bytes kept as they are: a NotificationMessage within
        // the negotiated MaxMessageSize carries a DataChangeNotification of up to that size.
        int length = d.readLength(field, Integer.MAX_VALUE, "MaxMessageSize", 1);
        if (length < 0) {
            return ExtensionObject.ofBinary(typeId, ByteString.NULL);
        }
        ByteBuf buf = d.buf;
        int end = buf.readerIndex() + length;
        int savedWriterIndex = buf.writerIndex();
        // Bound the body by its length without slicing (a slice would allocate): lower the writer index.
        buf.writerIndex(end);
        Object body;
        try {
            body = d.readStruct(field, codec);
        } finally {
            buf.writerIndex(savedWriterIndex);
        }
        buf.readerIndex(end);
        return ExtensionObject.of((UaStructure) body);
    }

    /** Reads a DiagnosticInfo: an encoding mask, the fields it announces, and the inner DiagnosticInfo. */
    static DiagnosticInfo readDiagnosticInfo(UaDecoder d, String field) {
        d.need(field, 1);
        int mask = d.buf.readUnsignedByte();
        if (mask == 0) {
            return DiagnosticInfo.NULL;
        }
        d.enter(field, -1);
        try {
            int symbolicId = (mask & 0x01) != 0 ? d.readInt32("SymbolicId") : -1;
            int namespaceUri = (mask & 0x02) != 0 ? d.readInt32("NamespaceUri") : -1;
            int locale = (mask & 0x08) != 0 ? d.readInt32("Locale") : -1;
            int localizedText = (mask & 0x04) != 0 ? d.readInt32("LocalizedText") : -1;
            String additionalInfo = (mask & 0x10) != 0 ? d.readString("AdditionalInfo") : null;
            StatusCode innerStatus = (mask & 0x20) != 0 ? d.readStatusCode("InnerStatusCode") : null;
            DiagnosticInfo inner = (mask & 0x40) != 0 ? readDiagnosticInfo(d, "InnerDiagnosticInfo") : null;
            return DiagnosticInfo.of(symbolicId, namespaceUri, locale, localizedText, additionalInfo, innerStatus,
                    inner);
        } finally {
            d.exit();
        }
    }
}
