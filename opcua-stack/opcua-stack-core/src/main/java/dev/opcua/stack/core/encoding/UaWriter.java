package dev.opcua.stack.core.encoding;

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
import java.util.UUID;

/**
 * Writes the fields of structures and the built-in types in one encoding: UA Binary
 * ({@link dev.opcua.stack.core.encoding.binary.UaEncoder}) or UA JSON
 * ({@link dev.opcua.stack.core.encoding.json.JsonEncoder}). A {@link UaCodec} writes a structure through this
 * interface once for every encoding. The field names are the structure's field names in the specification:
 * UA Binary ignores them, UA JSON writes them as the object's member names (Part 6, 5.4.6).
 */
public interface UaWriter {

    CodecRegistry registry();

    void writeBoolean(String field, boolean value);

    void writeSByte(String field, byte value);

    void writeByte(String field, short value);

    void writeInt16(String field, short value);

    void writeUInt16(String field, int value);

    void writeInt32(String field, int value);

    void writeUInt32(String field, long value);

    void writeInt64(String field, long value);

    void writeUInt64(String field, long value);

    void writeFloat(String field, float value);

    void writeDouble(String field, double value);

    void writeString(String field, String value);

    void writeDateTime(String field, DateTime value);

    void writeGuid(String field, UUID value);

    void writeByteString(String field, ByteString value);

    void writeXmlElement(String field, XmlElement value);

    void writeNodeId(String field, NodeId value);

    void writeExpandedNodeId(String field, ExpandedNodeId value);

    void writeStatusCode(String field, StatusCode value);

    void writeQualifiedName(String field, QualifiedName value);

    void writeLocalizedText(String field, LocalizedText value);

    void writeExtensionObject(String field, ExtensionObject value);

    void writeDataValue(String field, DataValue value);

    void writeVariant(String field, Variant value);

    void writeField(String field, BuiltinType type, Object value, boolean array);

    void writeDiagnosticInfo(String field, DiagnosticInfo value);

    void writeEnum(String field, UaEnumeration value);

    <T> void writeStruct(String field, T value, UaCodec<T> codec);

    void writeBooleanArray(String field, boolean[] values);

    void writeSByteArray(String field, byte[] values);

    void writeByteArray(String field, short[] values);

    void writeInt16Array(String field, short[] values);

    void writeUInt16Array(String field, int[] values);

    void writeInt32Array(String field, int[] values);

    void writeUInt32Array(String field, long[] values);

    void writeInt64Array(String field, long[] values);

    void writeUInt64Array(String field, long[] values);

    void writeFloatArray(String field, float[] values);

    void writeDoubleArray(String field, double[] values);

    void writeStringArray(String field, String[] values);

    void writeDateTimeArray(String field, DateTime[] values);

    void writeGuidArray(String field, UUID[] values);

    void writeByteStringArray(String field, ByteString[] values);

    void writeXmlElementArray(String field, XmlElement[] values);

    void writeNodeIdArray(String field, NodeId[] values);

    void writeExpandedNodeIdArray(String field, ExpandedNodeId[] values);

    void writeStatusCodeArray(String field, StatusCode[] values);

    void writeQualifiedNameArray(String field, QualifiedName[] values);

    void writeLocalizedTextArray(String field, LocalizedText[] values);

    void writeExtensionObjectArray(String field, ExtensionObject[] values);

    void writeDataValueArray(String field, DataValue[] values);

    void writeVariantArray(String field, Variant[] values);

    void writeDiagnosticInfoArray(String field, DiagnosticInfo[] values);

    void writeEnumArray(String field, UaEnumeration[] values);

    <T> void writeStructArray(String field, T[] values, UaCodec<T> codec);

    /**
     * Writes the EncodingMask of a structure with optional fields (Part 6, 5.2.7: a UInt32, one bit per optional
     * field in field order). The codec then writes only the fields present. UA JSON leaves an absent field out
     * and writes the mask as {@code "EncodingMask"} in the compact form only (5.4.7).
     */
    void writeEncodingMask(long mask);

    /**
     * Writes the SwitchField of a union (Part 6, 5.2.8: 0 for none, else the 1-based index of the field that
     * follows). The codec then writes the chosen field under its own name.
     */
    void writeSwitchField(long switchField);
}
