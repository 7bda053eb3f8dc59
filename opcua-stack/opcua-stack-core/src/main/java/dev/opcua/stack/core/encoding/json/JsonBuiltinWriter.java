package dev.opcua.stack.core.encoding.json;

import dev.opcua.stack.core.encoding.UaCodec;
import dev.opcua.stack.core.encoding.UaEncodingException;
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
import java.lang.reflect.Array;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;

/**
 * Writes the UA JSON values that have a layout of their own (OPC 10000-6 1.05, 5.4.2): the objects of
 * Variant (5.4.2.17), DataValue (5.4.2.18), ExtensionObject (5.4.2.16), DiagnosticInfo (5.4.2.13),
 * StatusCode (5.4.2.12) and LocalizedText (5.4.2.15); a scalar by its built-in type, and arrays (5.4.5).
 *
 * <p>Static methods on the {@link JsonEncoder}'s state, as the binary package's writers are; the bodies are
 * called once the encoder has started the member or element (and decided whether to leave it out).
 */
final class JsonBuiltinWriter {

    private JsonBuiltinWriter() {
    }

    /** Writes a scalar of {@code type} as {@link Variant} holds it ({@link BuiltinType#scalarClass()}). */
    static void writeScalar(JsonEncoder e, String field, BuiltinType type, Object v) {
        switch (type) {
            case Boolean -> e.writeBoolean(field, (Boolean) v);
            case SByte -> e.writeSByte(field, (Byte) v);
            case Byte -> e.writeByte(field, (Short) v);
            case Int16 -> e.writeInt16(field, (Short) v);
            case UInt16 -> e.writeUInt16(field, (Integer) v);
            case Int32 -> e.writeInt32(field, (Integer) v);
            case UInt32 -> e.writeUInt32(field, (Long) v);
            case Int64 -> e.writeInt64(field, (Long) v);
            case UInt64 -> e.writeUInt64(field, (Long) v);
            case Float -> e.writeFloat(field, (Float) v);
            case Double -> e.writeDouble(field, (Double) v);
            case String -> e.writeString(field, (String) v);
            case DateTime -> e.writeDateTime(field, (DateTime) v);
            case Guid -> e.writeGuid(field, (UUID) v);
            case ByteString -> e.writeByteString(field, (ByteString) v);
            case XmlElement -> e.writeXmlElement(field, (XmlElement) v);
            case NodeId -> e.writeNodeId(field, (NodeId) v);
            case ExpandedNodeId -> e.writeExpandedNodeId(field, (ExpandedNodeId) v);
            case StatusCode -> e.writeStatusCode(field, (StatusCode) v);
            case QualifiedName -> e.writeQualifiedName(field, (QualifiedName) v);
            case LocalizedText -> e.writeLocalizedText(field, (LocalizedText) v);
            case ExtensionObject -> e.writeExtensionObject(field, (ExtensionObject) v);
            case DataValue -> e.writeDataValue(field, (DataValue) v);
            case Variant -> e.writeVariant(field, (Variant) v);
            case DiagnosticInfo -> e.writeDiagnosticInfo(field, (DiagnosticInfo) v);
            default -> throw UaEncodingException.encodingError("field " + field + ": cannot write a " + type);
        }
    }

    /** Writes an array of {@link BuiltinType#arrayClass()} as a JSON array; a null array is NULL. */
    static void writeArray(JsonEncoder e, String field, BuiltinType type, Object array) {
        if (array == null) {
            if (e.start(field, true)) {
                e.writer.nullValue();
            }
            return;
        }
        if (!e.start(field, false)) {
            return;
        }
        e.writer.beginArray();
        int n = Array.getLength(array);
        for (int i = 0; i < n; i++) {
            writeScalar(e, null, type, Array.get(array, i));
        }
        e.writer.endArray();
    }

    /** Whether a scalar is the NULL of its nullable type (5.4.2.1): left out or written as JSON null. */
    static boolean isNull(BuiltinType type, Object v) {
        if (v == null) {
            return true;
        }
        return switch (type) {
            case ByteString -> ((ByteString) v).isNull();
            case XmlElement -> ((XmlElement) v).isNull();
            case NodeId -> v.equals(NodeId.NULL);
            case ExpandedNodeId -> v.equals(ExpandedNodeId.NULL);
            case QualifiedName -> v.equals(QualifiedName.NULL);
            case LocalizedText -> v.equals(LocalizedText.NULL);
            case ExtensionObject -> ((ExtensionObject) v).isNull();
            case DataValue -> v.equals(DataValue.NULL);
            case Variant -> ((Variant) v).isNull();
            case DiagnosticInfo -> ((DiagnosticInfo) v).isNull();
            default -> false;
        };
    }

    /**
     * The members of a Variant (5.4.2.17), also inlined into a DataValue (5.4.2.18): {@code UaType} first,
     * {@code Value} (a matrix flattened as 5.2.2.16 lays it out), {@code Dimensions} for a matrix. A NULL
     * scalar's {@code Value} is left out in the compact form.
     */
    static void variantMembers(JsonEncoder e, Variant v) {
        if (v == null || v.isNull()) {
            return;
        }
        JsonWriter w = e.writer;
        BuiltinType type = v.type();
        Object value = v.value();
        w.name("UaType");
        w.raw(Integer.toString(type.typeId()));
        if (v.isArray()) {
            w.name("Value");
            w.beginArray();
            int n = Array.getLength(value);
            for (int i = 0; i < n; i++) {
                writeScalar(e, null, type, Array.get(value, i));
            }
            w.endArray();
            if (v.isMatrix()) {
                w.name("Dimensions");
                w.beginArray();
                for (int d : v.arrayDimensions()) {
                    w.raw(Integer.toString(d));
                }
                w.endArray();
            }
        } else if (!isNull(type, value) || e.encoding == JsonEncoding.VERBOSE) {
            w.name("Value");
            writeScalar(e, null, type, value);
        }
    }

    /** 5.4.2.18: the Variant's members, then Status, timestamps and picoseconds where not Good, null or 0. */
    static void dataValueBody(JsonEncoder e, DataValue dv) {
        JsonWriter w = e.writer;
        w.beginObject();
        variantMembers(e, dv.value());
        if (dv.statusCode().value() != 0) {
            w.name("Status");
            statusCodeBody(e, dv.statusCode());
        }
        if (dv.sourceTimestamp() != null) {
            w.name("SourceTimestamp");
            w.string(JsonTextForms.dateTime(dv.sourceTimestamp()), "SourceTimestamp");
        }
        if (dv.sourcePicoseconds() != 0) {
            w.name("SourcePicoseconds");
            w.raw(Integer.toString(dv.sourcePicoseconds()));
        }
        if (dv.serverTimestamp() != null) {
            w.name("ServerTimestamp");
            w.string(JsonTextForms.dateTime(dv.serverTimestamp()), "ServerTimestamp");
        }
        if (dv.serverPicoseconds() != 0) {
            w.name("ServerPicoseconds");
            w.raw(Integer.toString(dv.serverPicoseconds()));
        }
        w.endObject();
    }

    /** 5.4.2.12: Code (UInt32, left out for Good); Symbol in the verbose form when the code has a name. */
    static void statusCodeBody(JsonEncoder e, StatusCode status) {
        JsonWriter w = e.writer;
        w.beginObject();
        if (status.value() != 0) {
            w.name("Code");
            w.raw(Long.toString(status.unsignedValue()));
            String symbol = e.encoding == JsonEncoding.VERBOSE ? status.name() : null;
            if (symbol != null) {
                w.name("Symbol");
                w.string(symbol, "Symbol");
            }
        }
        w.endObject();
    }

    static void localizedTextBody(JsonEncoder e, LocalizedText text) {
        JsonWriter w = e.writer;
        w.beginObject();
        if (text.locale() != null && !text.locale().isEmpty()) {
            w.name("Locale");
            w.string(text.locale(), "Locale");
        }
        if (text.text() != null && !text.text().isEmpty()) {
            w.name("Text");
            w.string(text.text(), "Text");
        }
        w.endObject();
    }

    /** 5.4.2.13: only the fields that differ from their defaults (-1, null, Good; an inner one when not null). */
    static void diagnosticInfoBody(JsonEncoder e, DiagnosticInfo info) {
        JsonWriter w = e.writer;
        w.beginObject();
        index(w, "SymbolicId", info.symbolicId());
        index(w, "NamespaceUri", info.namespaceUri());
        index(w, "Locale", info.locale());
        index(w, "LocalizedText", info.localizedText());
        if (info.additionalInfo() != null) {
            w.name("AdditionalInfo");
            w.string(info.additionalInfo(), "AdditionalInfo");
        }
        if (info.innerStatusCode() != null && info.innerStatusCode().value() != 0) {
            w.name("InnerStatusCode");
            statusCodeBody(e, info.innerStatusCode());
        }
        // An empty inner DiagnosticInfo is not null: written as {} so that it reads back as present.
        if (info.innerDiagnosticInfo() != null) {
            w.name("InnerDiagnosticInfo");
            diagnosticInfoBody(e, info.innerDiagnosticInfo());
        }
        w.endObject();
    }

    private static void index(JsonWriter w, String name, int value) {
        if (value != -1) {
            w.name(name);
            w.raw(Integer.toString(value));
        }
    }

    /**
     * 5.4.2.16. A decoded structure: its object with {@code UaTypeId}, the NodeId of its DataType, written
     * first. A body kept undecoded: {@code UaTypeId} is the id the ExtensionObject holds (its encoding's id,
     * the only one known), {@code UaEncoding} 1 (UA Binary) or 2 (UA XML) and {@code UaBody} the body as a
     * ByteString (base64; XML as its UTF-8 bytes). No body: {@code UaTypeId} alone.
     */
    static void extensionObjectBody(JsonEncoder e, ExtensionObject eo) {
        JsonWriter w = e.writer;
        w.beginObject();
        UaStructure structure = eo.decoded();
        if (structure != null) {
            UaCodec<UaStructure> codec = codecFor(e, structure);
            NodeId typeId = codec.dataTypeId();
            if (typeId == null || typeId.isNull()) {
                throw UaEncodingException.encodingError("the codec of " + codec.type().getSimpleName()
                        + " names no DataType for UaTypeId");
            }
            w.name("UaTypeId");
            w.string(JsonTextForms.nodeId(typeId, e.namespaces), "UaTypeId");
            codec.encode(e, structure);
        } else {
            w.name("UaTypeId");
            w.string(JsonTextForms.nodeId(eo.encodingId(), e.namespaces), "UaTypeId");
            byte[] body = null;
            if (eo.bodyType() == ExtensionObject.BodyType.ByteString) {
                w.name("UaEncoding");
                w.raw("1");
                body = eo.rawBody() == null ? null : eo.rawBody().unsafeBytes();
            } else if (eo.bodyType() == ExtensionObject.BodyType.XmlElement) {
                w.name("UaEncoding");
                w.raw("2");
                String xml = eo.xmlBody() == null ? null : eo.xmlBody().fragment();
                body = xml == null ? null : xml.getBytes(StandardCharsets.UTF_8);
            }
            if (body != null) {
                w.name("UaBody");
                w.string(Base64.getEncoder().encodeToString(body), "UaBody");
            }
        }
        w.endObject();
    }

    @SuppressWarnings("unchecked")
    private static UaCodec<UaStructure> codecFor(JsonEncoder e, UaStructure structure) {
        UaCodec<?> codec = e.registry().codecForEncodingId(structure.binaryEncodingId());
        if (codec == null || !codec.type().isInstance(structure)) {
            codec = e.registry().codecForType(structure.getClass());
        }
        if (codec == null) {
            throw UaEncodingException.encodingError("no codec registered for " + structure.getClass().getName()
                    + " (encoding " + structure.binaryEncodingId() + ")");
        }
        return (UaCodec<UaStructure>) codec;
    }
}
