package dev.opcua.stack.core.encoding.binary;

import dev.opcua.stack.core.encoding.UaEncodingException;
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
import java.util.UUID;

/**
 * Writes the built-in values whose layout depends on their content (Part 6, 5.2.2): the value of a Variant
 * or of a built-in structure field by its built-in type (5.2.2.16), a DiagnosticInfo with the mask of the
 * fields it has (5.2.2.12).
 *
 * <p>Static methods that write through the {@link UaEncoder}'s own buffer, not an object of their own: every
 * message goes through here, and this way a write costs no extra object, field load or virtual call.
 */
final class BuiltinValueWriter {

    private BuiltinValueWriter() {
    }

    /** Writes a scalar of {@code type} as {@link Variant} holds it; a numeric one unboxed straight to the buffer. */
    static void writeScalar(UaEncoder e, String field, BuiltinType type, Object v) {
        ByteBuf buf = e.buf;
        switch (type) {
            case Boolean:
                buf.writeByte((Boolean) v ? 1 : 0);
                break;
            case SByte:
                buf.writeByte((Byte) v);
                break;
            case Byte:
                buf.writeByte((Short) v);
                break;
            case Int16:
                buf.writeShortLE((Short) v);
                break;
            case UInt16:
                buf.writeShortLE((Integer) v);
                break;
            case Int32:
                buf.writeIntLE((Integer) v);
                break;
            case UInt32:
                buf.writeIntLE((int) (long) (Long) v);
                break;
            case Int64:
            case UInt64:
                buf.writeLongLE((Long) v);
                break;
            case Float:
                buf.writeFloatLE((Float) v);
                break;
            case Double:
                buf.writeDoubleLE((Double) v);
                break;
            default:
                writeObject(e, field, type, v);
        }
    }

    /** Writes one value of a non-numeric built-in type. */
    static void writeObject(UaEncoder e, String field, BuiltinType type, Object v) {
        switch (type) {
            case String:
                e.writeString(field, (String) v);
                break;
            case DateTime:
                e.writeDateTime(field, (DateTime) v);
                break;
            case Guid:
                e.writeGuid(field, (UUID) v);
                break;
            case ByteString:
                e.writeByteString(field, (ByteString) v);
                break;
            case XmlElement:
                e.writeXmlElement(field, (XmlElement) v);
                break;
            case NodeId:
                e.writeNodeId(field, (NodeId) v);
                break;
            case ExpandedNodeId:
                e.writeExpandedNodeId(field, (ExpandedNodeId) v);
                break;
            case StatusCode:
                e.writeStatusCode(field, (StatusCode) v);
                break;
            case QualifiedName:
                e.writeQualifiedName(field, (QualifiedName) v);
                break;
            case LocalizedText:
                e.writeLocalizedText(field, (LocalizedText) v);
                break;
            case ExtensionObject:
                e.writeExtensionObject(field, (ExtensionObject) v);
                break;
            case DataValue:
                e.writeDataValue(field, (DataValue) v);
                break;
            case Variant:
                e.writeVariant(field, (Variant) v);
                break;
            case DiagnosticInfo:
                e.writeDiagnosticInfo(field, (DiagnosticInfo) v);
                break;
            default:
                throw UaEncodingException.encodingError("field " + field + ": cannot write " + type + " as an object");
        }
    }

    /** Writes a DiagnosticInfo and its inner ones; null as an empty mask. */
    static void writeDiagnosticInfo(UaEncoder e, String field, DiagnosticInfo value) {
        ByteBuf buf = e.buf;
        DiagnosticInfo info = value;
        while (true) {
            if (info == null) {
                buf.writeByte(0);
                return;
            }
            String additional = info.additionalInfo();
            StatusCode innerStatus = info.innerStatusCode();
            DiagnosticInfo inner = info.innerDiagnosticInfo();
            int mask = (info.symbolicId() != -1 ? 0x01 : 0) | (info.namespaceUri() != -1 ? 0x02 : 0)
                    | (info.localizedText() != -1 ? 0x04 : 0) | (info.locale() != -1 ? 0x08 : 0)
                    | (additional != null ? 0x10 : 0) | (innerStatus != null ? 0x20 : 0) | (inner != null ? 0x40 : 0);
            buf.writeByte(mask);
            if ((mask & 0x01) != 0) {
                buf.writeIntLE(info.symbolicId());
            }
            if ((mask & 0x02) != 0) {
                buf.writeIntLE(info.namespaceUri());
            }
            if ((mask & 0x08) != 0) {
                buf.writeIntLE(info.locale());
            }
            if ((mask & 0x04) != 0) {
                buf.writeIntLE(info.localizedText());
            }
            if ((mask & 0x10) != 0) {
                e.writeString(field, additional);
            }
            if ((mask & 0x20) != 0) {
                buf.writeIntLE(innerStatus.value());
            }
            if (inner == null) {
                return;
            }
            info = inner; // the inner DiagnosticInfo follows directly: iterate instead of recursing
        }
    }
}
