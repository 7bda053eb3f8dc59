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
import java.util.List;
import java.util.UUID;
import java.util.function.IntFunction;

/**
 * Reads the fields of structures and the built-in types in one encoding: UA Binary
 * ({@link dev.opcua.stack.core.encoding.binary.UaDecoder}) or UA JSON
 * ({@link dev.opcua.stack.core.encoding.json.JsonDecoder}), within the reader's {@link EncodingLimits}. Every
 * read names its field, so an error can say where it happened.
 */
public interface UaReader {

    EncodingLimits limits();

    CodecRegistry registry();

    boolean readBoolean(String field);

    byte readSByte(String field);

    short readByte(String field);

    short readInt16(String field);

    int readUInt16(String field);

    int readInt32(String field);

    long readUInt32(String field);

    long readInt64(String field);

    long readUInt64(String field);

    float readFloat(String field);

    double readDouble(String field);

    String readString(String field);

    DateTime readDateTime(String field);

    UUID readGuid(String field);

    ByteString readByteString(String field);

    XmlElement readXmlElement(String field);

    NodeId readNodeId(String field);

    ExpandedNodeId readExpandedNodeId(String field);

    StatusCode readStatusCode(String field);

    QualifiedName readQualifiedName(String field);

    LocalizedText readLocalizedText(String field);

    ExtensionObject readExtensionObject(String field);

    DataValue readDataValue(String field);

    Variant readVariant(String field);

    Object readField(String field, BuiltinType type, boolean array);

    DiagnosticInfo readDiagnosticInfo(String field);

    <E extends UaEnumeration> E readEnum(String field, IntFunction<E> fromValue);

    <T> T readStruct(String field, UaCodec<T> codec);

    boolean[] readBooleanArray(String field);

    byte[] readSByteArray(String field);

    short[] readByteArray(String field);

    short[] readInt16Array(String field);

    int[] readUInt16Array(String field);

    int[] readInt32Array(String field);

    long[] readUInt32Array(String field);

    long[] readInt64Array(String field);

    long[] readUInt64Array(String field);

    float[] readFloatArray(String field);

    double[] readDoubleArray(String field);

    String[] readStringArray(String field);

    DateTime[] readDateTimeArray(String field);

    UUID[] readGuidArray(String field);

    ByteString[] readByteStringArray(String field);

    XmlElement[] readXmlElementArray(String field);

    NodeId[] readNodeIdArray(String field);

    ExpandedNodeId[] readExpandedNodeIdArray(String field);

    StatusCode[] readStatusCodeArray(String field);

    QualifiedName[] readQualifiedNameArray(String field);

    LocalizedText[] readLocalizedTextArray(String field);

    ExtensionObject[] readExtensionObjectArray(String field);

    DataValue[] readDataValueArray(String field);

    Variant[] readVariantArray(String field);

    DiagnosticInfo[] readDiagnosticInfoArray(String field);

    <E extends UaEnumeration> E[] readEnumArray(String field, IntFunction<E> fromValue,
            IntFunction<E[]> newArray);

    <T> T[] readStructArray(String field, UaCodec<T> codec, IntFunction<T[]> newArray);

    /**
     * Reads the EncodingMask of a structure with optional fields (Part 6, 5.2.7); UA JSON reports the optional
     * fields that are present as the same bits (5.4.7).
     *
     * @param optionalFields the names of the optional fields, in field order (bit 0 first)
     */
    long readEncodingMask(List<String> optionalFields);

    /**
     * Reads the SwitchField of a union (Part 6, 5.2.8): 0 for none, else the 1-based index of the chosen field.
     *
     * @param fields the names of the union's fields, in order
     */
    long readSwitchField(List<String> fields);
}
