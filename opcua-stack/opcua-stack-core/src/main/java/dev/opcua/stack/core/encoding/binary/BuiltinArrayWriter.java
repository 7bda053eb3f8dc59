package dev.opcua.stack.core.encoding.binary;

import dev.opcua.stack.core.types.UaEnumeration;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import io.netty.buffer.ByteBuf;

/**
 * Writes one-dimensional arrays of built-in types and enumerations (Part 6, 5.2.5): an Int32 length, -1 for
 * null, then the elements. Numeric arrays are taken as primitive arrays, the other built-in types as arrays
 * of their {@link BuiltinType#scalarClass()}.
 *
 * <p>Static methods that write through the {@link UaEncoder}'s own buffer, not an object of their own: every
 * message goes through here, and this way a write costs no extra object, field load or virtual call.
 */
final class BuiltinArrayWriter {

    private BuiltinArrayWriter() {
    }

    /** Writes an array of {@code type} as {@link BuiltinType#arrayClass()} holds it; null as length -1. */
    static void writeArray(UaEncoder e, String field, BuiltinType type, Object array) {
        switch (type) {
            case Boolean:
                writeBooleanArray(e, field, (boolean[]) array);
                break;
            case SByte:
                writeSByteArray(e, field, (byte[]) array);
                break;
            case Byte:
                writeByteArray(e, field, (short[]) array);
                break;
            case Int16:
                writeInt16Array(e, field, (short[]) array);
                break;
            case UInt16:
                writeUInt16Array(e, field, (int[]) array);
                break;
            case Int32:
                writeInt32Array(e, field, (int[]) array);
                break;
            case UInt32:
                writeUInt32Array(e, field, (long[]) array);
                break;
            case Int64:
                writeInt64Array(e, field, (long[]) array);
                break;
            case UInt64:
                writeUInt64Array(e, field, (long[]) array);
                break;
            case Float:
                writeFloatArray(e, field, (float[]) array);
                break;
            case Double:
                writeDoubleArray(e, field, (double[]) array);
                break;
            default:
                writeObjectArray(e, field, type, (Object[]) array);
        }
    }

    /** Writes an array of a non-numeric built-in type element by element; null as length -1. */
    static void writeObjectArray(UaEncoder e, String field, BuiltinType type, Object[] values) {
        ByteBuf buf = e.buf;
        if (values == null) {
            buf.writeIntLE(-1);
            return;
        }
        buf.writeIntLE(values.length);
        for (Object v : values) {
            BuiltinValueWriter.writeObject(e, field, type, v);
        }
    }

    static void writeBooleanArray(UaEncoder e, String field, boolean[] values) {
        ByteBuf buf = e.buf;
        if (values == null) {
            buf.writeIntLE(-1);
            return;
        }
        buf.writeIntLE(values.length);
        for (boolean v : values) {
            buf.writeByte(v ? 1 : 0);
        }
    }

    static void writeSByteArray(UaEncoder e, String field, byte[] values) {
        ByteBuf buf = e.buf;
        if (values == null) {
            buf.writeIntLE(-1);
            return;
        }
        buf.writeIntLE(values.length);
        buf.writeBytes(values);
    }

    static void writeByteArray(UaEncoder e, String field, short[] values) {
        ByteBuf buf = e.buf;
        if (values == null) {
            buf.writeIntLE(-1);
            return;
        }
        buf.writeIntLE(values.length);
        for (short v : values) {
            buf.writeByte(v);
        }
    }

    static void writeInt16Array(UaEncoder e, String field, short[] values) {
        ByteBuf buf = e.buf;
        if (values == null) {
            buf.writeIntLE(-1);
            return;
        }
        buf.writeIntLE(values.length);
        for (short v : values) {
            buf.writeShortLE(v);
        }
    }

    static void writeUInt16Array(UaEncoder e, String field, int[] values) {
        ByteBuf buf = e.buf;
        if (values == null) {
            buf.writeIntLE(-1);
            return;
        }
        buf.writeIntLE(values.length);
        for (int v : values) {
            buf.writeShortLE(v);
        }
    }

    static void writeInt32Array(UaEncoder e, String field, int[] values) {
        ByteBuf buf = e.buf;
        if (values == null) {
            buf.writeIntLE(-1);
            return;
        }
        buf.writeIntLE(values.length);
        for (int v : values) {
            buf.writeIntLE(v);
        }
    }

    static void writeUInt32Array(UaEncoder e, String field, long[] values) {
        ByteBuf buf = e.buf;
        if (values == null) {
            buf.writeIntLE(-1);
            return;
        }
        buf.writeIntLE(values.length);
        for (long v : values) {
            buf.writeIntLE((int) v);
        }
    }

    static void writeInt64Array(UaEncoder e, String field, long[] values) {
        ByteBuf buf = e.buf;
        if (values == null) {
            buf.writeIntLE(-1);
            return;
        }
        buf.writeIntLE(values.length);
        for (long v : values) {
            buf.writeLongLE(v);
        }
    }

    static void writeUInt64Array(UaEncoder e, String field, long[] values) {
        writeInt64Array(e, field, values);
    }

    static void writeFloatArray(UaEncoder e, String field, float[] values) {
        ByteBuf buf = e.buf;
        if (values == null) {
            buf.writeIntLE(-1);
            return;
        }
        buf.writeIntLE(values.length);
        for (float v : values) {
            buf.writeFloatLE(v);
        }
    }

    static void writeDoubleArray(UaEncoder e, String field, double[] values) {
        ByteBuf buf = e.buf;
        if (values == null) {
            buf.writeIntLE(-1);
            return;
        }
        buf.writeIntLE(values.length);
        for (double v : values) {
            buf.writeDoubleLE(v);
        }
    }

    static void writeEnumArray(UaEncoder e, String field, UaEnumeration[] values) {
        ByteBuf buf = e.buf;
        if (values == null) {
            buf.writeIntLE(-1);
            return;
        }
        buf.writeIntLE(values.length);
        for (UaEnumeration v : values) {
            e.writeEnum(field, v);
        }
    }
}
