package dev.opcua.stack.core.encoding.binary;

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
import io.netty.buffer.ByteBuf;
import java.util.Arrays;
import java.util.UUID;
import java.util.function.IntFunction;

/**
 * Reads one-dimensional arrays of built-in types and enumerations (Part 6, 5.2.5): an Int32 length, -1 for
 * null, then the elements. Numeric arrays come back as primitive arrays, the other built-in types as arrays
 * of their {@link BuiltinType#scalarClass()}, element by element with the element's index on the decoder's
 * path.
 *
 * <p>Static methods that read the {@link UaDecoder}'s own fields, not an object of their own: every message
 * goes through here, and this way a read costs no extra object, field load or virtual call.
 */
final class BuiltinArrayReader {

    /** Fewest bytes one encoded element of each built-in type takes, by type id; bounds array lengths. */
    private static final int[] MIN_ENCODED_BYTES = {
        1, 1, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8, 4, 8, 16, 4, 4, 2, 2, 4, 6, 1, 3, 1, 1, 1
    };

    // Shared empty arrays by element class: an empty array read allocates nothing.
    static final String[] NO_STRINGS = {};
    static final DateTime[] NO_DATE_TIMES = {};
    static final UUID[] NO_GUIDS = {};
    static final ByteString[] NO_BYTE_STRINGS = {};
    static final XmlElement[] NO_XML_ELEMENTS = {};
    static final NodeId[] NO_NODE_IDS = {};
    static final ExpandedNodeId[] NO_EXPANDED_NODE_IDS = {};
    static final StatusCode[] NO_STATUS_CODES = {};
    static final QualifiedName[] NO_QUALIFIED_NAMES = {};
    static final LocalizedText[] NO_LOCALIZED_TEXTS = {};
    static final ExtensionObject[] NO_EXTENSION_OBJECTS = {};
    static final DataValue[] NO_DATA_VALUES = {};
    static final Variant[] NO_VARIANTS = {};
    static final DiagnosticInfo[] NO_DIAGNOSTIC_INFOS = {};

    private BuiltinArrayReader() {
    }

    /**
     * Reads an array of {@code type} as {@link BuiltinType#arrayClass()} holds it, or null for length -1.
     */
    static Object readArray(UaDecoder d, String field, BuiltinType type) {
        switch (type) {
            case Boolean:
                return readBooleanArray(d, field);
            case SByte:
                return readSByteArray(d, field);
            case Byte:
                return readByteArray(d, field);
            case Int16:
                return readInt16Array(d, field);
            case UInt16:
                return readUInt16Array(d, field);
            case Int32:
                return readInt32Array(d, field);
            case UInt32:
                return readUInt32Array(d, field);
            case Int64:
                return readInt64Array(d, field);
            case UInt64:
                return readUInt64Array(d, field);
            case Float:
                return readFloatArray(d, field);
            case Double:
                return readDoubleArray(d, field);
            default:
                return readObjectArray(d, field, type, emptyArrayOf(type));
        }
    }

    /**
     * Reads an array of a non-numeric built-in type, or null for length -1.
     *
     * @param prototype the shared empty array of the element class, returned for length 0
     */
    @SuppressWarnings("unchecked")
    static <T> T[] readObjectArray(UaDecoder d, String field, BuiltinType type, T[] prototype) {
        int length = d.readArrayLength(field, MIN_ENCODED_BYTES[type.typeId()]);
        if (length < 0) {
            return null;
        }
        T[] values = length == 0 ? prototype : Arrays.copyOf(prototype, length);
        d.push(field, 0);
        try {
            for (int i = 0; i < length; i++) {
                d.index(i);
                values[i] = (T) BuiltinValueReader.readObject(d, null, type);
            }
        } finally {
            d.pop();
        }
        return values;
    }

    /** The shared empty array of the element class of {@code type}, a non-numeric built-in type. */
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

    static boolean[] readBooleanArray(UaDecoder d, String field) {
        int length = d.readArrayLength(field, 1);
        if (length < 0) {
            return null;
        }
        boolean[] values = new boolean[length];
        ByteBuf buf = d.buf;
        for (int i = 0; i < length; i++) {
            values[i] = buf.readByte() != 0;
        }
        return values;
    }

    static byte[] readSByteArray(UaDecoder d, String field) {
        int length = d.readArrayLength(field, 1);
        if (length < 0) {
            return null;
        }
        byte[] values = new byte[length];
        d.buf.readBytes(values);
        return values;
    }

    static short[] readByteArray(UaDecoder d, String field) {
        int length = d.readArrayLength(field, 1);
        if (length < 0) {
            return null;
        }
        short[] values = new short[length];
        ByteBuf buf = d.buf;
        for (int i = 0; i < length; i++) {
            values[i] = buf.readUnsignedByte();
        }
        return values;
    }

    static short[] readInt16Array(UaDecoder d, String field) {
        int length = d.readArrayLength(field, 2);
        if (length < 0) {
            return null;
        }
        short[] values = new short[length];
        ByteBuf buf = d.buf;
        for (int i = 0; i < length; i++) {
            values[i] = buf.readShortLE();
        }
        return values;
    }

    static int[] readUInt16Array(UaDecoder d, String field) {
        int length = d.readArrayLength(field, 2);
        if (length < 0) {
            return null;
        }
        int[] values = new int[length];
        ByteBuf buf = d.buf;
        for (int i = 0; i < length; i++) {
            values[i] = buf.readUnsignedShortLE();
        }
        return values;
    }

    static int[] readInt32Array(UaDecoder d, String field) {
        int length = d.readArrayLength(field, 4);
        if (length < 0) {
            return null;
        }
        int[] values = new int[length];
        ByteBuf buf = d.buf;
        for (int i = 0; i < length; i++) {
            values[i] = buf.readIntLE();
        }
        return values;
    }

    static long[] readUInt32Array(UaDecoder d, String field) {
        int length = d.readArrayLength(field, 4);
        if (length < 0) {
            return null;
        }
        long[] values = new long[length];
        ByteBuf buf = d.buf;
        for (int i = 0; i < length; i++) {
            values[i] = buf.readUnsignedIntLE();
        }
        return values;
    }

    static long[] readInt64Array(UaDecoder d, String field) {
        int length = d.readArrayLength(field, 8);
        if (length < 0) {
            return null;
        }
        long[] values = new long[length];
        ByteBuf buf = d.buf;
        for (int i = 0; i < length; i++) {
            values[i] = buf.readLongLE();
        }
        return values;
    }

    static long[] readUInt64Array(UaDecoder d, String field) {
        return readInt64Array(d, field);
    }

    static float[] readFloatArray(UaDecoder d, String field) {
        int length = d.readArrayLength(field, 4);
        if (length < 0) {
            return null;
        }
        float[] values = new float[length];
        ByteBuf buf = d.buf;
        for (int i = 0; i < length; i++) {
            values[i] = buf.readFloatLE();
        }
        return values;
    }

    static double[] readDoubleArray(UaDecoder d, String field) {
        int length = d.readArrayLength(field, 8);
        if (length < 0) {
            return null;
        }
        double[] values = new double[length];
        ByteBuf buf = d.buf;
        for (int i = 0; i < length; i++) {
            values[i] = buf.readDoubleLE();
        }
        return values;
    }

    /** Reads an array of enumeration values (Int32 each); a value {@code fromValue} does not know is malformed. */
    static <E extends UaEnumeration> E[] readEnumArray(UaDecoder d, String field, IntFunction<E> fromValue,
            IntFunction<E[]> newArray) {
        int length = d.readArrayLength(field, 4);
        if (length < 0) {
            return null;
        }
        E[] values = newArray.apply(length);
        for (int i = 0; i < length; i++) {
            values[i] = d.readEnum(field, fromValue);
        }
        return values;
    }
}
