package dev.opcua.stack.core.types.builtin;

import dev.opcua.stack.core.types.UaStructure;
import java.util.UUID;

/**
 * The 25 built-in types with their type ids (Part 6, 5.1.2) and the Java class each is held in.
 *
 * <p>Unsigned integers are held in the next wider signed Java type (Byte in short, UInt16 in int,
 * UInt32 in long); UInt64 is held in a long whose bits are the unsigned value. Arrays of the
 * numeric types are primitive arrays ({@code double[]}, {@code long[]} for UInt32 ...); arrays of the
 * other types are arrays of their class.
 */
public enum BuiltinType {
    Null(0, Void.class, null),
    Boolean(1, java.lang.Boolean.class, boolean[].class),
    SByte(2, java.lang.Byte.class, byte[].class),
    Byte(3, Short.class, short[].class),
    Int16(4, Short.class, short[].class),
    UInt16(5, Integer.class, int[].class),
    Int32(6, Integer.class, int[].class),
    UInt32(7, Long.class, long[].class),
    Int64(8, Long.class, long[].class),
    UInt64(9, Long.class, long[].class),
    Float(10, java.lang.Float.class, float[].class),
    Double(11, java.lang.Double.class, double[].class),
    String(12, java.lang.String.class, java.lang.String[].class),
    DateTime(13, DateTime.class, DateTime[].class),
    Guid(14, UUID.class, UUID[].class),
    ByteString(15, ByteString.class, ByteString[].class),
    XmlElement(16, XmlElement.class, XmlElement[].class),
    NodeId(17, NodeId.class, NodeId[].class),
    ExpandedNodeId(18, ExpandedNodeId.class, ExpandedNodeId[].class),
    StatusCode(19, StatusCode.class, StatusCode[].class),
    QualifiedName(20, QualifiedName.class, QualifiedName[].class),
    LocalizedText(21, LocalizedText.class, LocalizedText[].class),
    ExtensionObject(22, ExtensionObject.class, ExtensionObject[].class),
    DataValue(23, DataValue.class, DataValue[].class),
    Variant(24, Variant.class, Variant[].class),
    DiagnosticInfo(25, DiagnosticInfo.class, DiagnosticInfo[].class);

    private static final BuiltinType[] BY_ID = values();

    private final int typeId;
    private final Class<?> scalarClass;
    private final Class<?> arrayClass;

    BuiltinType(int typeId, Class<?> scalarClass, Class<?> arrayClass) {
        this.typeId = typeId;
        this.scalarClass = scalarClass;
        this.arrayClass = arrayClass;
    }

    /** Type id as encoded in a Variant's mask (1..25; 0 is the null Variant). */
    public int typeId() {
        return typeId;
    }

    /** NodeId of the DataType in namespace 0 (the type id is also the DataType's numeric id). */
    public NodeId dataTypeId() {
        return dev.opcua.stack.core.types.builtin.NodeId.ns0(typeId);
    }

    /** Java class of a scalar value of this type. */
    public Class<?> scalarClass() {
        return scalarClass;
    }

    /** Java class of a one-dimensional array (flattened for matrices) of this type. */
    public Class<?> arrayClass() {
        return arrayClass;
    }

    /** The type with this id, or null when the id is not 0..25. */
    public static BuiltinType fromTypeId(int typeId) {
        return typeId >= 0 && typeId < BY_ID.length ? BY_ID[typeId] : null;
    }

    /**
     * The built-in type a Java value maps to unambiguously: Boolean, Byte (SByte), Short (Int16),
     * Integer (Int32), Long (Int64), Float, Double, String and every built-in class; a
     * {@link UaStructure} maps to ExtensionObject. Unsigned types must be named explicitly.
     */
    public static BuiltinType forScalarClass(Class<?> type) {
        if (type == java.lang.Byte.class) {
            return SByte;
        }
        if (type == Short.class) {
            return Int16;
        }
        if (type == Integer.class) {
            return Int32;
        }
        if (type == Long.class) {
            return Int64;
        }
        for (BuiltinType t : BY_ID) {
            if (t.scalarClass == type) {
                return t;
            }
        }
        if (UaStructure.class.isAssignableFrom(type)) {
            return ExtensionObject;
        }
        return null;
    }
}
