package dev.opcua.stack.core.encoding.json;

import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.ids.StatusCodes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Parses one UTF-8 JSON document (RFC 8259) into {@link JsonNode}s, enforcing the limits while it reads, before
 * anything large is built: nesting depth, string length in UTF-8 bytes, elements per array and members per
 * object ({@code BadEncodingLimitsExceeded}). Malformed input is {@code BadDecodingError}: bad syntax, invalid
 * UTF-8, raw control characters or lone surrogate escapes in strings, duplicate member names (OPC 10000-6 1.05,
 * 5.4.2.16 has decoders report them), and anything after the value. Messages name the member path and the
 * byte offset, e.g. {@code Body.NodesToRead[3].IndexRange: ... (byte 1234)}.
 *
 * <p>Recursive descent; the depth limit bounds the recursion.
 */
final class JsonParser {

    /** The most JSON levels ever parsed, whatever the limits say: bounds the parser's recursion. */
    static final int MAX_JSON_DEPTH = 1000;

    private final byte[] in;
    private final int end;
    private int pos;
    private final int maxDepth;
    private final int maxStringBytes;
    private final int maxNameBytes;
    private final int maxElements;
    private String[] pathNames = new String[16];
    private int[] pathIndexes = new int[16];
    private int depth;
    private final StringBuilder sb = new StringBuilder();

    /**
     * @param limits the decoder's limits. JSON levels: two per UA nesting level (an object and an array) plus
     *     two, at most {@link #MAX_JSON_DEPTH}. Strings: the longest a String, a base64 ByteString or an
     *     XmlElement may be; the decoder checks each value against its own limit.
     */
    JsonParser(byte[] in, int offset, int length, EncodingLimits limits) {
        this.in = in;
        this.pos = offset;
        this.end = offset + length;
        this.maxDepth = (int) Math.min(MAX_JSON_DEPTH, 2L * limits.maxNestingDepth() + 2);
        long base64 = (limits.maxByteStringLength() + 2L) / 3 * 4;
        this.maxStringBytes = (int) Math.min(Integer.MAX_VALUE,
                Math.max(Math.max(limits.maxStringLength(), limits.maxByteStringLength()), base64));
        this.maxNameBytes = limits.maxStringLength();
        this.maxElements = limits.maxArrayLength();
    }

    JsonNode parseDocument() {
        skipWhitespace();
        if (pos >= end) {
            throw malformed("the document is empty");
        }
        JsonNode root = parseValue();
        skipWhitespace();
        if (pos < end) {
            throw malformed("unexpected " + describeByte() + " after the JSON value");
        }
        return root;
    }

    private JsonNode parseValue() {
        if (pos >= end) {
            throw malformed("the document ends where a value is expected");
        }
        byte b = in[pos];
        switch (b) {
            case '{':
                return parseObject();
            case '[':
                return parseArray();
            case '"':
                pos++;
                return parseString(maxStringBytes, "MaxStringLength/MaxByteStringLength");
            case 't':
                literal("true");
                return JsonNode.TRUE;
            case 'f':
                literal("false");
                return JsonNode.FALSE;
            case 'n':
                literal("null");
                return JsonNode.NULL;
            default:
                if (b == '-' || (b >= '0' && b <= '9')) {
                    return parseNumber();
                }
                throw malformed("unexpected " + describeByte() + " where a value is expected");
        }
    }

    private JsonNode parseObject() {
        enterLevel();
        pos++;
        List<String> names = new ArrayList<>();
        List<JsonNode> values = new ArrayList<>();
        Set<String> seen = null;
        skipWhitespace();
        if (peek() == '}') {
            pos++;
            depth--;
            return JsonNode.EMPTY_OBJECT;
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"') {
                throw malformed("expected a member name in quotes but found " + describeByte());
            }
            pos++;
            String name = parseString(maxNameBytes, "MaxStringLength").text;
            if (names.size() >= maxElements) {
                throw overLimit("object has more than " + maxElements + " members (MaxArrayLength)");
            }
            if (names.size() == 8 && seen == null) {
                seen = new HashSet<>(names);
            }
            if (seen != null ? !seen.add(name) : names.contains(name)) {
                throw malformed("duplicate member \"" + name + "\" (5.4.2.16: member names are unique)");
            }
            skipWhitespace();
            if (peek() != ':') {
                throw malformed("expected ':' after member \"" + name + "\" but found " + describeByte());
            }
            pos++;
            skipWhitespace();
            pathNames[depth - 1] = name;
            values.add(parseValue());
            pathNames[depth - 1] = null;
            names.add(name);
            skipWhitespace();
            byte b = peek();
            pos++;
            if (b == '}') {
                break;
            }
            if (b != ',') {
                pos--;
                throw malformed("expected ',' or '}' in an object but found " + describeByte());
            }
        }
        depth--;
        return JsonNode.object(names.toArray(new String[0]), values.toArray(new JsonNode[0]));
    }

    private JsonNode parseArray() {
        enterLevel();
        pos++;
        skipWhitespace();
        if (peek() == ']') {
            pos++;
            depth--;
            return JsonNode.EMPTY_ARRAY;
        }
        List<JsonNode> elements = new ArrayList<>();
        while (true) {
            if (elements.size() >= maxElements) {
                throw overLimit("array has more than " + maxElements + " elements (MaxArrayLength)");
            }
            pathIndexes[depth - 1] = elements.size();
            skipWhitespace();
            elements.add(parseValue());
            skipWhitespace();
            byte b = peek();
            pos++;
            if (b == ']') {
                break;
            }
            if (b != ',') {
                pos--;
                throw malformed("expected ',' or ']' in an array but found " + describeByte());
            }
        }
        pathIndexes[depth - 1] = -1;
        depth--;
        return JsonNode.array(elements.toArray(new JsonNode[0]));
    }

    private void enterLevel() {
        if (depth >= maxDepth) {
            throw overLimit("JSON nesting deeper than " + maxDepth + " levels (from MaxEncodingNestingLevels)");
        }
        if (depth == pathNames.length) {
            pathNames = Arrays.copyOf(pathNames, depth * 2);
            pathIndexes = Arrays.copyOf(pathIndexes, depth * 2);
        }
        pathNames[depth] = null;
        pathIndexes[depth] = -1;
        depth++;
    }

    /** Parses a string after its opening quote, decoding UTF-8 strictly and counting its UTF-8 bytes. */
    private JsonNode parseString(int limit, String limitName) {
        int start = pos;
        // Fast path: printable ASCII without escapes.
        while (pos < end) {
            byte b = in[pos];
            if (b == '"') {
                int length = pos - start;
                checkStringLength(length, limit, limitName);
                pos++;
                return JsonNode.string(new String(in, start, length, StandardCharsets.ISO_8859_1), length);
            }
            if (b == '\\' || b < 0x20) {
                break;
            }
            pos++;
            if (pos - start > limit) {
                checkStringLength(pos - start, limit, limitName);
            }
        }
        sb.setLength(0);
        sb.append(new String(in, start, pos - start, StandardCharsets.ISO_8859_1));
        long utf8 = pos - start;
        while (true) {
            if (pos >= end) {
                throw malformed("the document ends inside a string");
            }
            int b = in[pos] & 0xFF;
            if (b == '"') {
                pos++;
                return JsonNode.string(sb.toString(), (int) utf8);
            }
            if (b < 0x20) {
                throw malformed(String.format("raw control character 0x%02X in a string (RFC 8259 requires an escape)", b));
            }
            int cp;
            if (b == '\\') {
                cp = parseEscape();
            } else if (b < 0x80) {
                cp = b;
                pos++;
            } else {
                cp = parseUtf8(b);
            }
            utf8 += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
            checkStringLength(utf8, limit, limitName);
            sb.appendCodePoint(cp);
        }
    }

    private void checkStringLength(long utf8, int limit, String limitName) {
        if (utf8 > limit) {
            throw overLimit("string longer than " + limit + " UTF-8 bytes (" + limitName + ")");
        }
    }

    private int parseEscape() {
        if (pos + 1 >= end) {
            throw malformed("the document ends inside an escape");
        }
        byte e = in[pos + 1];
        pos += 2;
        switch (e) {
            case '"':
                return '"';
            case '\\':
                return '\\';
            case '/':
                return '/';
            case 'b':
                return '\b';
            case 'f':
                return '\f';
            case 'n':
                return '\n';
            case 'r':
                return '\r';
            case 't':
                return '\t';
            case 'u':
                int unit = hex4();
                if (Character.isHighSurrogate((char) unit)) {
                    if (pos + 1 < end && in[pos] == '\\' && in[pos + 1] == 'u') {
                        pos += 2;
                        int low = hex4();
                        if (Character.isLowSurrogate((char) low)) {
                            return Character.toCodePoint((char) unit, (char) low);
                        }
                    }
                    throw malformed(String.format("escape \\u%04X is a high surrogate without its low surrogate", unit));
                }
                if (Character.isLowSurrogate((char) unit)) {
                    throw malformed(String.format("escape \\u%04X is a lone low surrogate", unit));
                }
                return unit;
            default:
                pos -= 2;
                throw malformed("invalid escape '\\" + (e >= 0x20 && e < 0x7F ? String.valueOf((char) e)
                        : String.format("\\x%02X", e & 0xFF)) + "'");
        }
    }

    private int hex4() {
        if (pos + 4 > end) {
            throw malformed("the document ends inside a \\u escape");
        }
        int value = 0;
        for (int i = 0; i < 4; i++) {
            int d = Character.digit((char) (in[pos + i] & 0xFF), 16);
            if (d < 0 || in[pos + i] < 0) {
                throw malformed("\\u escape needs 4 hex digits");
            }
            value = value << 4 | d;
        }
        pos += 4;
        return value;
    }

    /** One UTF-8 sequence starting with {@code b} (≥ 0x80): no overlong forms, surrogates or values past U+10FFFF. */
    private int parseUtf8(int b) {
        int needed;
        int cp;
        int min;
        if (b >= 0xC2 && b <= 0xDF) {
            needed = 1;
            cp = b & 0x1F;
            min = 0x80;
        } else if (b >= 0xE0 && b <= 0xEF) {
            needed = 2;
            cp = b & 0x0F;
            min = 0x800;
        } else if (b >= 0xF0 && b <= 0xF4) {
            needed = 3;
            cp = b & 0x07;
            min = 0x10000;
        } else {
            throw malformed(String.format("invalid UTF-8 byte 0x%02X", b));
        }
        if (pos + needed >= end) {
            throw malformed("the document ends inside a UTF-8 sequence");
        }
        for (int i = 1; i <= needed; i++) {
            int c = in[pos + i] & 0xFF;
            if ((c & 0xC0) != 0x80) {
                throw malformed(String.format("invalid UTF-8 continuation byte 0x%02X", c));
            }
            cp = cp << 6 | (c & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            throw malformed(String.format("invalid UTF-8 sequence for U+%X", cp));
        }
        pos += needed + 1;
        return cp;
    }

    /** RFC 8259, 6: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
    private JsonNode parseNumber() {
        int start = pos;
        if (in[pos] == '-') {
            pos++;
        }
        if (pos < end && in[pos] == '0') {
            pos++;
        } else if (!digits()) {
            throw malformed("invalid number: expected a digit");
        }
        if (pos < end && in[pos] == '.') {
            pos++;
            if (!digits()) {
                throw malformed("invalid number: expected a digit after '.'");
            }
        }
        if (pos < end && (in[pos] == 'e' || in[pos] == 'E')) {
            pos++;
            if (pos < end && (in[pos] == '+' || in[pos] == '-')) {
                pos++;
            }
            if (!digits()) {
                throw malformed("invalid number: expected a digit in the exponent");
            }
        }
        if (pos - start > maxNameBytes) {
            throw overLimit("number text longer than " + maxNameBytes + " characters (MaxStringLength)");
        }
        return JsonNode.number(new String(in, start, pos - start, StandardCharsets.ISO_8859_1));
    }

    private boolean digits() {
        int start = pos;
        while (pos < end && in[pos] >= '0' && in[pos] <= '9') {
            pos++;
        }
        return pos > start;
    }

    private void literal(String word) {
        int n = word.length();
        if (pos + n > end) {
            throw malformed("the document ends inside the literal '" + word + "'");
        }
        for (int i = 0; i < n; i++) {
            if (in[pos + i] != word.charAt(i)) {
                throw malformed("invalid literal: expected '" + word + "'");
            }
        }
        pos += n;
    }

    private void skipWhitespace() {
        while (pos < end) {
            byte b = in[pos];
            if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                return;
            }
            pos++;
        }
    }

    private byte peek() {
        if (pos >= end) {
            throw malformed("the document ends early");
        }
        return in[pos];
    }

    private String describeByte() {
        if (pos >= end) {
            return "the end of the document";
        }
        int b = in[pos] & 0xFF;
        return b > 0x20 && b < 0x7F ? "'" + (char) b + "'" : String.format("byte 0x%02X", b);
    }

    private UaEncodingException malformed(String detail) {
        return failure(StatusCodes.BadDecodingError, detail);
    }

    private UaEncodingException overLimit(String detail) {
        return failure(StatusCodes.BadEncodingLimitsExceeded, detail);
    }

    private UaEncodingException failure(int status, String detail) {
        StringBuilder path = new StringBuilder();
        for (int i = 0; i < depth; i++) {
            if (pathNames[i] != null) {
                if (path.length() > 0) {
                    path.append('.');
                }
                path.append(pathNames[i]);
            }
            if (pathIndexes[i] >= 0) {
                path.append('[').append(pathIndexes[i]).append(']');
            }
        }
        String where = path.length() == 0 ? "JSON document" : path.toString();
        return new UaEncodingException(status, where + ": " + detail + " (byte " + pos + ")");
    }
}
