package dev.opcua.stack.core.types.builtin;

import java.util.Arrays;
import java.util.Base64;

/**
 * An immutable sequence of bytes (Part 6, 5.2.2.7). A null ByteString (length -1 on the wire) is
 * {@link #NULL}, distinct from the empty one.
 */
public final class ByteString {

    public static final ByteString NULL = new ByteString(null);
    public static final ByteString EMPTY = new ByteString(new byte[0]);

    private final byte[] bytes;

    private ByteString(byte[] bytes) {
        this.bytes = bytes;
    }

    /** A ByteString holding a copy of the given bytes; null gives {@link #NULL}. */
    public static ByteString of(byte[] bytes) {
        return bytes == null ? NULL : new ByteString(bytes.clone());
    }

    /** A ByteString that takes ownership of the array: the caller must not change it afterwards. */
    public static ByteString wrap(byte[] bytes) {
        if (bytes == null) {
            return NULL;
        }
        return bytes.length == 0 ? EMPTY : new ByteString(bytes);
    }

    public boolean isNull() {
        return bytes == null;
    }

    /** Number of bytes; -1 for the null ByteString. */
    public int length() {
        return bytes == null ? -1 : bytes.length;
    }

    /** A copy of the bytes, or null for the null ByteString. */
    public byte[] bytes() {
        return bytes == null ? null : bytes.clone();
    }

    /** The byte at an index. */
    public byte byteAt(int index) {
        return bytes[index];
    }

    /** The backing array, not copied: for encoders, which only read it. */
    public byte[] unsafeBytes() {
        return bytes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ByteString && Arrays.equals(((ByteString) o).bytes, bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return bytes == null ? "ByteString[null]" : "ByteString[" + Base64.getEncoder().encodeToString(bytes) + "]";
    }
}
