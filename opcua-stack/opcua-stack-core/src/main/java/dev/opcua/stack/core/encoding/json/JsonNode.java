package dev.opcua.stack.core.encoding.json;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One parsed JSON value (RFC 8259): what {@code JsonParser} builds and {@link JsonDecoder} reads. A tree,
 * because UA JSON objects are unordered (OPC 10000-6 1.05, 5.4.6) while codecs read fields in their order.
 *
 * <p>Numbers keep their text (checked against the JSON grammar) so that each read converts it to its target
 * type and reports a value out of that type's range; strings keep their UTF-8 length for the limits.
 */
final class JsonNode {

    enum Kind { OBJECT, ARRAY, STRING, NUMBER, TRUE, FALSE, NULL }

    static final JsonNode NULL = new JsonNode(Kind.NULL, null, 0, null, null);
    static final JsonNode TRUE = new JsonNode(Kind.TRUE, null, 0, null, null);
    static final JsonNode FALSE = new JsonNode(Kind.FALSE, null, 0, null, null);
    static final JsonNode EMPTY_OBJECT = object(new String[0], new JsonNode[0]);
    static final JsonNode EMPTY_ARRAY = array(new JsonNode[0]);

    /** Objects with more members than this are looked up through a hash map. */
    private static final int LINEAR_LOOKUP = 8;

    final Kind kind;
    /** String value or number text; null otherwise. */
    final String text;
    /** UTF-8 length of a string's value. */
    final int utf8Length;
    /** Member names of an object in document order; null otherwise. */
    private final String[] names;
    /** Member values of an object or elements of an array. */
    private final JsonNode[] values;
    private Map<String, Integer> index;

    private JsonNode(Kind kind, String text, int utf8Length, String[] names, JsonNode[] values) {
        this.kind = kind;
        this.text = text;
        this.utf8Length = utf8Length;
        this.names = names;
        this.values = values;
    }

    static JsonNode string(String value, int utf8Length) {
        return new JsonNode(Kind.STRING, value, utf8Length, null, null);
    }

    static JsonNode number(String text) {
        return new JsonNode(Kind.NUMBER, text, text.length(), null, null);
    }

    /** An object; the parser has refused duplicate names. */
    static JsonNode object(String[] names, JsonNode[] values) {
        return new JsonNode(Kind.OBJECT, null, 0, names, values);
    }

    static JsonNode array(JsonNode[] elements) {
        return new JsonNode(Kind.ARRAY, null, 0, null, elements);
    }

    boolean isNull() {
        return kind == Kind.NULL;
    }

    /** Members of an object, elements of an array, 0 otherwise. */
    int size() {
        return values == null ? 0 : values.length;
    }

    JsonNode element(int i) {
        return values[i];
    }

    /** The member named {@code name} of an object, or null when there is none. */
    JsonNode member(String name) {
        if (names == null) {
            return null;
        }
        if (names.length <= LINEAR_LOOKUP) {
            for (int i = 0; i < names.length; i++) {
                if (names[i].equals(name)) {
                    return values[i];
                }
            }
            return null;
        }
        Map<String, Integer> map = index;
        if (map == null) {
            map = new HashMap<>(names.length * 2);
            for (int i = 0; i < names.length; i++) {
                map.put(names[i], i);
            }
            index = map;
        }
        Integer i = map.get(name);
        return i == null ? null : values[i];
    }

    List<String> names() {
        return names == null ? List.of() : Arrays.asList(names.clone());
    }

    String describe() {
        return switch (kind) {
            case OBJECT -> "an object";
            case ARRAY -> "an array";
            case STRING -> "a string";
            case NUMBER -> "the number " + (text.length() > 40 ? text.substring(0, 40) + "..." : text);
            case TRUE -> "true";
            case FALSE -> "false";
            case NULL -> "null";
        };
    }
}
