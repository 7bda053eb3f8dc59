package dev.opcua.stack.core.encoding.json;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.UaCodec;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.encoding.UaWriter;
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
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * Writes UA JSON (OPC 10000-6 1.05, 5.4) in the {@link JsonEncoding#COMPACT} or {@link JsonEncoding#VERBOSE}
 * form, as UTF-8 into an internal buffer ({@link #toBytes()}, {@link #toJson()}).
 *
 * <p>Every {@code writeX(field, value)} writes the member {@code "field": value} inside the current object, or
 * an element (or the one top-level value) when {@code field} is null. Structures go through their
 * {@link UaCodec}: {@link #writeStruct} opens an object and the codec's own writes name its members (5.4.6).
 * Callers that compose their own documents (the PubSub JSON message mapping) frame them with
 * {@link #beginObject(String)}/{@link #endObject()} and {@link #beginArray(String)}/{@link #endArray()}.
 *
 * <p>Where a form differs, see {@link JsonEncoding}. NodeIds, ExpandedNodeIds and QualifiedNames of a namespace
 * other than 0 use the {@code nsu=} URI form when the encoder has a namespace table that knows the index, the
 * {@code ns=} index form otherwise (see {@code JsonTextForms}). Strings with a lone surrogate are refused
 * ({@code BadEncodingError}), never replaced.
 *
 * <p>The values with a layout of their own (Variant, DataValue, ExtensionObject, DiagnosticInfo, arrays) are
 * written by the package-private {@code JsonBuiltinWriter}; the JSON tokens by {@code JsonWriter}.
 * Not thread-safe; {@link #reset()} to reuse.
 */
public final class JsonEncoder implements UaWriter {

    final JsonWriter writer = new JsonWriter();
    final JsonEncoding encoding;
    final List<String> namespaces;
    private final CodecRegistry registry;

    /** An encoder without a namespace table: NodeIds of namespaces other than 0 use the {@code ns=} form. */
    public JsonEncoder(CodecRegistry registry, JsonEncoding encoding) {
        this(registry, encoding, null);
    }

    /**
     * @param namespaceUris the namespace table (element i is the URI of namespace index i), or null for none
     */
    public JsonEncoder(CodecRegistry registry, JsonEncoding encoding, List<String> namespaceUris) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.encoding = Objects.requireNonNull(encoding, "encoding");
        this.namespaces = namespaceUris == null ? null : List.copyOf(namespaceUris);
    }

    @Override
    public CodecRegistry registry() {
        return registry;
    }

    public JsonEncoding encoding() {
        return encoding;
    }

    // ---- output and framing -------------------------------------------------------------------------------

    /** The UTF-8 JSON written so far. */
    public byte[] toBytes() {
        return writer.toBytes();
    }

    /** The JSON written so far. */
    public String toJson() {
        return writer.toString();
    }

    @Override
    public String toString() {
        return toJson();
    }

    /** Forgets everything written, to write the next document. */
    public JsonEncoder reset() {
        writer.reset();
        return this;
    }

    /** Opens an object as the top-level value or the next array element. */
    public JsonEncoder beginObject() {
        return beginObject(null);
    }

    /** Opens an object as the member {@code field} (or, for null, as an element or the top-level value). */
    public JsonEncoder beginObject(String field) {
        start(field, false);
        writer.beginObject();
        return this;
    }

    public JsonEncoder endObject() {
        writer.endObject();
        return this;
    }

    /** Opens an array as the member {@code field} (or, for null, as an element or the top-level value). */
    public JsonEncoder beginArray(String field) {
        start(field, false);
        writer.beginArray();
        return this;
    }

    public JsonEncoder endArray() {
        writer.endArray();
        return this;
    }

    /**
     * Starts the member {@code field} or an element; false when the compact form leaves the value out.
     *
     * @param isDefault whether the value is NULL or its type's default (5.4.2.1, 5.4.6)
     */
    boolean start(String field, boolean isDefault) {
        if (field == null) {
            if (writer.inObject()) {
                throw new IllegalStateException("a value inside an object needs a field name");
            }
            return true;
        }
        if (!writer.inObject()) {
            throw new IllegalStateException("field " + field + " is not inside an object: call beginObject first");
        }
        if (isDefault && encoding == JsonEncoding.COMPACT) {
            return false;
        }
        writer.name(field);
        return true;
    }

    /** Writes a NULL value: left out of a compact object, JSON null elsewhere. */
    private void writeNull(String field) {
        if (start(field, true)) {
            writer.nullValue();
        }
    }

    // ---- numbers and Boolean (5.4.2.2 - 5.4.2.4) ------------------------------------------------------------

    @Override
    public void writeBoolean(String field, boolean value) {
        if (start(field, !value)) {
            writer.raw(value ? "true" : "false");
        }
    }

    @Override
    public void writeSByte(String field, byte value) {
        writeInteger(field, value);
    }

    @Override
    public void writeByte(String field, short value) {
        writeInteger(field, value);
    }

    @Override
    public void writeInt16(String field, short value) {
        writeInteger(field, value);
    }

    @Override
    public void writeUInt16(String field, int value) {
        writeInteger(field, value);
    }

    @Override
    public void writeInt32(String field, int value) {
        writeInteger(field, value);
    }

    @Override
    public void writeUInt32(String field, long value) {
        writeInteger(field, value);
    }

    private void writeInteger(String field, long value) {
        if (start(field, value == 0)) {
            writer.raw(Long.toString(value));
        }
    }

    /** 5.4.2.3: a decimal number in a JSON string. */
    @Override
    public void writeInt64(String field, long value) {
        if (start(field, value == 0)) {
            writer.string(Long.toString(value), field);
        }
    }

    /** @param value the bits of the unsigned value, written as an unsigned decimal string */
    @Override
    public void writeUInt64(String field, long value) {
        if (start(field, value == 0)) {
            writer.string(Long.toUnsignedString(value), field);
        }
    }

    @Override
    public void writeFloat(String field, float value) {
        if (start(field, Float.floatToRawIntBits(value) == 0)) {
            if (JsonTextForms.isSpecial(value)) {
                writer.string(JsonTextForms.floatText(value), field);
            } else {
                writer.raw(JsonTextForms.floatText(value));
            }
        }
    }

    @Override
    public void writeDouble(String field, double value) {
        if (start(field, Double.doubleToRawLongBits(value) == 0)) {
            if (JsonTextForms.isSpecial(value)) {
                writer.string(JsonTextForms.doubleText(value), field);
            } else {
                writer.raw(JsonTextForms.doubleText(value));
            }
        }
    }

    // ---- text, times, bytes (5.4.2.5 - 5.4.2.9) --------------------------------------------------------------

    @Override
    public void writeString(String field, String value) {
        if (value == null) {
            writeNull(field);
        } else if (start(field, false)) {
            writer.string(value, field);
        }
    }

    /** 5.4.2.6; DateTime.MinValue (and null) is the default, left out of compact objects. */
    @Override
    public void writeDateTime(String field, DateTime value) {
        if (start(field, value == null || value.isNull())) {
            writer.string(JsonTextForms.dateTime(value), field);
        }
    }

    @Override
    public void writeGuid(String field, UUID value) {
        UUID guid = value == null ? new UUID(0, 0) : value;
        if (start(field, guid.getMostSignificantBits() == 0 && guid.getLeastSignificantBits() == 0)) {
            writer.string(JsonTextForms.guid(guid), field);
        }
    }

    /** 5.4.2.8: base64 (RFC 4648, with padding); a null ByteString is NULL, an empty one {@code ""}. */
    @Override
    public void writeByteString(String field, ByteString value) {
        byte[] bytes = value == null ? null : value.unsafeBytes();
        if (bytes == null) {
            writeNull(field);
        } else if (start(field, false)) {
            writer.string(Base64.getEncoder().encodeToString(bytes), field);
        }
    }

    /** 5.4.2.9: the XML text as a JSON string. */
    @Override
    public void writeXmlElement(String field, XmlElement value) {
        writeString(field, value == null ? null : value.fragment());
    }

    // ---- identifiers and names (5.4.2.10 - 5.4.2.15) ---------------------------------------------------------

    /** 5.4.2.10: the string form of 5.1.12; the null NodeId is NULL. */
    @Override
    public void writeNodeId(String field, NodeId value) {
        if (value == null || value.equals(NodeId.NULL)) {
            writeNull(field);
        } else if (start(field, false)) {
            writer.string(JsonTextForms.nodeId(value, namespaces), field);
        }
    }

    @Override
    public void writeExpandedNodeId(String field, ExpandedNodeId value) {
        if (value == null || value.equals(ExpandedNodeId.NULL)) {
            writeNull(field);
        } else if (start(field, false)) {
            writer.string(JsonTextForms.expandedNodeId(value, namespaces), field);
        }
    }

    /** 5.4.2.12: {@code {"Code":n}}, plus {@code "Symbol"} in the verbose form; Good is the default. */
    @Override
    public void writeStatusCode(String field, StatusCode value) {
        StatusCode status = value == null ? StatusCode.GOOD : value;
        if (start(field, status.value() == 0)) {
            JsonBuiltinWriter.statusCodeBody(this, status);
        }
    }

    @Override
    public void writeQualifiedName(String field, QualifiedName value) {
        if (value == null || value.equals(QualifiedName.NULL)) {
            writeNull(field);
        } else if (start(field, false)) {
            writer.string(JsonTextForms.qualifiedName(value, namespaces), field);
        }
    }

    /** 5.4.2.15: {@code {"Locale":..,"Text":..}}, each left out when null or empty. */
    @Override
    public void writeLocalizedText(String field, LocalizedText value) {
        if (value == null || value.equals(LocalizedText.NULL)) {
            writeNull(field);
        } else if (start(field, false)) {
            JsonBuiltinWriter.localizedTextBody(this, value);
        }
    }

    // ---- containers (5.4.2.13, 5.4.2.16 - 5.4.2.18) ----------------------------------------------------------

    /**
     * 5.4.2.16: the structure's JSON object with {@code "UaTypeId"} (its DataType) inserted first; a body this
     * side could not decode as {@code UaTypeId}, {@code UaEncoding} (1 binary, 2 XML) and {@code UaBody}
     * (base64). The null ExtensionObject is left out of compact objects and is {@code {}} in verbose ones.
     */
    @Override
    public void writeExtensionObject(String field, ExtensionObject value) {
        if (value == null || value.isNull()) {
            if (field != null && encoding == JsonEncoding.VERBOSE && start(field, true)) {
                writer.beginObject();
                writer.endObject();
            } else {
                writeNull(field);
            }
        } else if (start(field, false)) {
            JsonBuiltinWriter.extensionObjectBody(this, value);
        }
    }

    @Override
    public void writeDataValue(String field, DataValue value) {
        if (value == null || value.equals(DataValue.NULL)) {
            writeNull(field);
        } else if (start(field, false)) {
            JsonBuiltinWriter.dataValueBody(this, value);
        }
    }

    /** 5.4.2.17: {@code {"UaType":n,"Value":..}} plus {@code "Dimensions"} for a matrix; the null Variant is NULL. */
    @Override
    public void writeVariant(String field, Variant value) {
        if (value == null || value.isNull()) {
            writeNull(field);
        } else if (start(field, false)) {
            writer.beginObject();
            JsonBuiltinWriter.variantMembers(this, value);
            writer.endObject();
        }
    }

    @Override
    public void writeField(String field, BuiltinType type, Object value, boolean array) {
        if (array) {
            JsonBuiltinWriter.writeArray(this, field, type, value);
        } else {
            JsonBuiltinWriter.writeScalar(this, field, type, value);
        }
    }

    @Override
    public void writeDiagnosticInfo(String field, DiagnosticInfo value) {
        if (value == null || value.isNull()) {
            writeNull(field);
        } else if (start(field, false)) {
            JsonBuiltinWriter.diagnosticInfoBody(this, value);
        }
    }

    // ---- enumerations and structures (5.4.4, 5.4.6 - 5.4.8) --------------------------------------------------

    /** 5.4.4: a number in the compact form; {@code "Name_Value"} in the verbose form (just the value if unnamed). */
    @Override
    public void writeEnum(String field, UaEnumeration value) {
        if (value == null) {
            throw UaEncodingException.encodingError("field " + field + ": enumeration value is null");
        }
        if (!start(field, value.value() == 0)) {
            return;
        }
        if (encoding == JsonEncoding.COMPACT) {
            writer.raw(Integer.toString(value.value()));
        } else if (value instanceof Enum<?> e) {
            writer.string(e.name() + "_" + value.value(), field);
        } else {
            writer.string(Integer.toString(value.value()), field);
        }
    }

    /** A structure as a JSON object whose members the codec writes (5.4.6). */
    @Override
    public <T> void writeStruct(String field, T value, UaCodec<T> codec) {
        if (value == null) {
            throw UaEncodingException.encodingError("field " + field + ": structure " + codec.type().getSimpleName()
                    + " is null");
        }
        if (start(field, false)) {
            writer.beginObject();
            codec.encode(this, value);
            writer.endObject();
        }
    }

    @Override
    public <T> void writeStructArray(String field, T[] values, UaCodec<T> codec) {
        if (values == null) {
            writeNull(field);
            return;
        }
        if (start(field, false)) {
            writer.beginArray();
            for (T v : values) {
                writeStruct(null, v, codec);
            }
            writer.endArray();
        }
    }

    /**
     * 5.4.7: the compact form writes {@code "EncodingMask"} (absent fields and present ones with default
     * values are both left out, so only the mask tells them apart); the verbose form writes no mask, every
     * present optional field is written and the reader infers the bits from the members present.
     */
    @Override
    public void writeEncodingMask(long mask) {
        if (encoding == JsonEncoding.COMPACT) {
            writeUInt32("EncodingMask", mask);
        }
    }

    /** 5.4.8: {@code "SwitchField"} in the compact form only; the verbose form names the chosen field alone. */
    @Override
    public void writeSwitchField(long switchField) {
        if (encoding == JsonEncoding.COMPACT) {
            writeUInt32("SwitchField", switchField);
        }
    }

    // ---- arrays (5.4.5): a JSON array, NULL elements as null; a null array is NULL --------------------------

    @Override
    public void writeBooleanArray(String field, boolean[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.Boolean, values);
    }

    @Override
    public void writeSByteArray(String field, byte[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.SByte, values);
    }

    @Override
    public void writeByteArray(String field, short[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.Byte, values);
    }

    @Override
    public void writeInt16Array(String field, short[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.Int16, values);
    }

    @Override
    public void writeUInt16Array(String field, int[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.UInt16, values);
    }

    @Override
    public void writeInt32Array(String field, int[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.Int32, values);
    }

    @Override
    public void writeUInt32Array(String field, long[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.UInt32, values);
    }

    @Override
    public void writeInt64Array(String field, long[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.Int64, values);
    }

    @Override
    public void writeUInt64Array(String field, long[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.UInt64, values);
    }

    @Override
    public void writeFloatArray(String field, float[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.Float, values);
    }

    @Override
    public void writeDoubleArray(String field, double[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.Double, values);
    }

    @Override
    public void writeStringArray(String field, String[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.String, values);
    }

    @Override
    public void writeDateTimeArray(String field, DateTime[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.DateTime, values);
    }

    @Override
    public void writeGuidArray(String field, UUID[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.Guid, values);
    }

    @Override
    public void writeByteStringArray(String field, ByteString[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.ByteString, values);
    }

    @Override
    public void writeXmlElementArray(String field, XmlElement[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.XmlElement, values);
    }

    @Override
    public void writeNodeIdArray(String field, NodeId[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.NodeId, values);
    }

    @Override
    public void writeExpandedNodeIdArray(String field, ExpandedNodeId[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.ExpandedNodeId, values);
    }

    @Override
    public void writeStatusCodeArray(String field, StatusCode[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.StatusCode, values);
    }

    @Override
    public void writeQualifiedNameArray(String field, QualifiedName[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.QualifiedName, values);
    }

    @Override
    public void writeLocalizedTextArray(String field, LocalizedText[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.LocalizedText, values);
    }

    @Override
    public void writeExtensionObjectArray(String field, ExtensionObject[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.ExtensionObject, values);
    }

    @Override
    public void writeDataValueArray(String field, DataValue[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.DataValue, values);
    }

    @Override
    public void writeVariantArray(String field, Variant[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.Variant, values);
    }

    @Override
    public void writeDiagnosticInfoArray(String field, DiagnosticInfo[] values) {
        JsonBuiltinWriter.writeArray(this, field, BuiltinType.DiagnosticInfo, values);
    }

    @Override
    public void writeEnumArray(String field, UaEnumeration[] values) {
        if (values == null) {
            writeNull(field);
            return;
        }
        if (start(field, false)) {
            writer.beginArray();
            for (UaEnumeration v : values) {
                writeEnum(null, v);
            }
            writer.endArray();
        }
    }
}
