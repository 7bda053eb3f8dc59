package dev.opcua.stack.core.encoding.json;

import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.ids.StatusCodes;
import java.util.Arrays;

/**
 * The cursor of a {@link JsonDecoder} over the parsed tree: a stack of frames (the value, its field name and
 * array index), the count of nested UA values checked against MaxEncodingNestingLevels, and the path that names
 * the field of a failure, e.g. {@code ReadRequest.NodesToRead[1].AttributeId}, built only when one is reported.
 *
 * <p>A base class, as {@code BoundedDecoder} is for UA Binary: everything here is package-private, for the
 * decoder and {@code JsonBuiltinReader}; none of it is the decoder's public API.
 */
abstract class JsonCursor {

    final EncodingLimits limits;
    JsonNode[] nodes = new JsonNode[16];
    String[] names = new String[16];
    int[] indexes = new int[16];
    /** Per frame: the union member read under the name {@code "Value"} (the 1.04 union form), or null. */
    String[] aliases = new String[16];
    int top;
    private int nesting;

    JsonCursor(EncodingLimits limits) {
        this.limits = limits;
    }

    /** Leaves the frame pushed last. */
    final void pop() {
        if (top == 0) {
            throw new IllegalStateException("exit() without a matching enter");
        }
        nodes[top] = null;
        aliases[top] = null;
        top--;
    }

    /** The member {@code field} of the current object (null when missing), or the current value for null. */
    final JsonNode value(String field) {
        JsonNode current = nodes[top];
        if (field == null) {
            return current;
        }
        if (current.kind != JsonNode.Kind.OBJECT) {
            throw malformed(null, "is " + current.describe() + " but member " + field + " is read from it");
        }
        JsonNode n = current.member(field);
        if (n == null && field.equals(aliases[top])) {
            n = current.member("Value");
        }
        return n;
    }

    final JsonNode requireKind(String field, JsonNode n, JsonNode.Kind kind) {
        if (n.kind != kind) {
            throw malformed(field, "expected " + (kind == JsonNode.Kind.OBJECT ? "an object" : "an array")
                    + " but found " + n.describe());
        }
        return n;
    }

    final void push(JsonNode node, String field, int index) {
        if (++top == nodes.length) {
            nodes = Arrays.copyOf(nodes, top * 2);
            names = Arrays.copyOf(names, top * 2);
            indexes = Arrays.copyOf(indexes, top * 2);
            aliases = Arrays.copyOf(aliases, top * 2);
        }
        nodes[top] = node;
        names[top] = field;
        indexes[top] = index;
    }

    /** Sets the index of the element being read in the array pushed last. */
    final void index(int index) {
        indexes[top] = index;
    }

    /** Enters a nested UA value (structure, Variant, DataValue, ExtensionObject, DiagnosticInfo) held by {@code n}. */
    final void enterNested(String field, JsonNode n) {
        requireKind(field, n, JsonNode.Kind.OBJECT);
        if (nesting >= limits.maxNestingDepth()) {
            throw overLimit(field, "nesting depth exceeds MaxEncodingNestingLevels " + limits.maxNestingDepth());
        }
        nesting++;
        push(n, field, -1);
    }

    final void exitNested() {
        nesting--;
        pop();
    }

    final UaEncodingException malformed(String field, String detail) {
        return new UaEncodingException(StatusCodes.BadDecodingError, path(field) + ": " + detail);
    }

    final UaEncodingException overLimit(String field, String detail) {
        return new UaEncodingException(StatusCodes.BadEncodingLimitsExceeded, path(field) + ": " + detail);
    }

    /** The path to {@code field} (or the current value): names joined by dots, array indexes in brackets. */
    final String path(String field) {
        StringBuilder sb = new StringBuilder(64);
        for (int i = 1; i <= top; i++) {
            if (names[i] != null) {
                if (sb.length() > 0) {
                    sb.append('.');
                }
                sb.append(names[i]);
            }
            if (indexes[i] >= 0) {
                sb.append('[').append(indexes[i]).append(']');
            }
        }
        if (field != null) {
            if (sb.length() > 0) {
                sb.append('.');
            }
            sb.append(field);
        }
        return sb.length() == 0 ? "JSON document" : sb.toString();
    }
}
