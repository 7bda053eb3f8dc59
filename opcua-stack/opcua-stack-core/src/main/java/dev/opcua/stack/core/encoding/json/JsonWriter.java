package dev.opcua.stack.core.encoding.json;

import dev.opcua.stack.core.encoding.UaEncodingException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes JSON tokens (RFC 8259) as UTF-8 into a growing byte array and checks that they nest: a member name
 * only inside an object and followed by one value, elements only inside an array, one value at the top level.
 * Misuse is a programming error ({@link IllegalStateException}); a string that cannot be UTF-8 (a lone
 * surrogate) is a {@code BadEncodingError}: refused, not replaced, so that nothing is silently altered.
 *
 * <p>Knows nothing about OPC UA; {@link JsonEncoder} decides what to write.
 */
final class JsonWriter {

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final int OBJECT = 1;
    private static final int ARRAY = 2;

    private byte[] buf = new byte[256];
    private int size;
    private int[] kinds = new int[16];
    /** Per open container: whether nothing has been written into it yet (no comma needed). */
    private boolean[] empty = new boolean[16];
    private int depth;
    /** A member name was written and its value has not been yet. */
    private boolean afterName;
    private boolean rootWritten;

    boolean inObject() {
        return depth > 0 && kinds[depth - 1] == OBJECT && !afterName;
    }

    boolean inArray() {
        return depth > 0 && kinds[depth - 1] == ARRAY;
    }

    int depth() {
        return depth;
    }

    void name(String name) {
        if (!inObject()) {
            throw new IllegalStateException("member \"" + name + "\" outside an object: begin an object first");
        }
        comma();
        quoted(name, name);
        put((byte) ':');
        afterName = true;
    }

    void beginObject() {
        beforeValue();
        put((byte) '{');
        push(OBJECT);
    }

    void endObject() {
        if (depth == 0 || kinds[depth - 1] != OBJECT || afterName) {
            throw new IllegalStateException("no object to end here");
        }
        depth--;
        put((byte) '}');
    }

    void beginArray() {
        beforeValue();
        put((byte) '[');
        push(ARRAY);
    }

    void endArray() {
        if (!inArray()) {
            throw new IllegalStateException("no array to end here");
        }
        depth--;
        put((byte) ']');
    }

    /** A JSON string; {@code field} names the value in the error for a lone surrogate. */
    void string(String value, String field) {
        beforeValue();
        quoted(value, field);
    }

    /** A number or literal whose ASCII text the caller has made valid JSON. */
    void raw(String ascii) {
        beforeValue();
        int n = ascii.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            buf[size++] = (byte) ascii.charAt(i);
        }
    }

    void nullValue() {
        raw("null");
    }

    byte[] toBytes() {
        return Arrays.copyOf(buf, size);
    }

    int size() {
        return size;
    }

    @Override
    public String toString() {
        return new String(buf, 0, size, StandardCharsets.UTF_8);
    }

    void reset() {
        size = 0;
        depth = 0;
        afterName = false;
        rootWritten = false;
    }

    private void beforeValue() {
        if (afterName) {
            afterName = false;
            return;
        }
        if (depth == 0) {
            if (rootWritten) {
                throw new IllegalStateException("a JSON document holds one top-level value; reset() to start another");
            }
            rootWritten = true;
            return;
        }
        if (kinds[depth - 1] == OBJECT) {
            throw new IllegalStateException("a value inside an object needs a member name");
        }
        comma();
    }

    private void comma() {
        if (empty[depth - 1]) {
            empty[depth - 1] = false;
        } else {
            put((byte) ',');
        }
    }

    private void push(int kind) {
        if (depth == kinds.length) {
            kinds = Arrays.copyOf(kinds, depth * 2);
            empty = Arrays.copyOf(empty, depth * 2);
        }
        kinds[depth] = kind;
        empty[depth] = true;
        depth++;
    }

    private void quoted(String s, String field) {
        int n = s.length();
        ensure(n + 2);
        buf[size++] = '"';
        for (int i = 0; i < n; i++) {
            ensure(6);
            char c = s.charAt(i);
            if (c < 0x80) {
                if (c >= 0x20 && c != '"' && c != '\\') {
                    buf[size++] = (byte) c;
                } else {
                    escape(c);
                }
            } else if (c < 0x800) {
                buf[size++] = (byte) (0xC0 | (c >> 6));
                buf[size++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isSurrogate(c)) {
                if (!Character.isHighSurrogate(c) || i + 1 >= n || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    throw UaEncodingException.encodingError("field " + field + ": string has a lone surrogate U+"
                            + Integer.toHexString(c).toUpperCase() + " at index " + i + ", which UTF-8 cannot encode");
                }
                int cp = Character.toCodePoint(c, s.charAt(++i));
                buf[size++] = (byte) (0xF0 | (cp >> 18));
                buf[size++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                buf[size++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                buf[size++] = (byte) (0x80 | (cp & 0x3F));
            } else {
                buf[size++] = (byte) (0xE0 | (c >> 12));
                buf[size++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                buf[size++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        ensure(1);
        buf[size++] = '"';
    }

    /** RFC 8259, 7: quote and backslash escaped, control characters as their short form or \\u00XX. */
    private void escape(char c) {
        ensure(6);
        buf[size++] = '\\';
        switch (c) {
            case '"' -> buf[size++] = '"';
            case '\\' -> buf[size++] = '\\';
            case '\n' -> buf[size++] = 'n';
            case '\r' -> buf[size++] = 'r';
            case '\t' -> buf[size++] = 't';
            case '\b' -> buf[size++] = 'b';
            case '\f' -> buf[size++] = 'f';
            default -> {
                buf[size++] = 'u';
                buf[size++] = '0';
                buf[size++] = '0';
                buf[size++] = HEX[c >> 4];
                buf[size++] = HEX[c & 0xF];
            }
        }
    }

    private void put(byte b) {
        ensure(1);
        buf[size++] = b;
    }

    private void ensure(int more) {
        if (size + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
        }
    }
}
