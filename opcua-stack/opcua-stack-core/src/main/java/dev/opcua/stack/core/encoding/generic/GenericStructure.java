package dev.opcua.stack.core.encoding.generic;

import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.StructureType;
import java.util.Arrays;
import java.util.Objects;

/**
 * A value of a structured DataType that no generated class knows, held by field (Part 3, 8.48 and
 * Part 6, 5.2.6): it is encoded and decoded by {@link GenericStructureCodec} from its
 * {@link StructureLayout}.
 *
 * <p>Field values are: a built-in scalar as {@link Variant} holds it ({@link BuiltinType#scalarClass()},
 * a {@link Variant} for BaseDataType), a built-in array as {@link BuiltinType#arrayClass()}, an
 * enumeration as Integer or int[], a nested structure as its {@link UaStructure} (generated class or
 * GenericStructure) or an array of them. An absent optional field, and every field but the chosen
 * one of a union, is null. Immutable; made with {@link #builder(StructureLayout)}.
 */
public final class GenericStructure implements UaStructure {

    private final StructureLayout layout;
    private final Object[] values;
    /** For a union: the index of the chosen field, -1 for none. */
    private final int unionIndex;

    GenericStructure(StructureLayout layout, Object[] values, int unionIndex) {
        this.layout = layout;
        this.values = values;
        this.unionIndex = unionIndex;
    }

    public static Builder builder(StructureLayout layout) {
        return new Builder(layout);
    }

    public StructureLayout layout() {
        return layout;
    }

    @Override
    public NodeId typeId() {
        return layout.typeId();
    }

    @Override
    public NodeId binaryEncodingId() {
        return layout.binaryEncodingId();
    }

    /** The value of a field (see the class comment), or null when absent. */
    public Object get(String fieldName) {
        return values[index(fieldName)];
    }

    /** The value of the field at {@code index} of the layout. */
    public Object get(int index) {
        return values[index];
    }

    /** Whether a field is present: always for a mandatory field of a structure; only the chosen field of a union. */
    public boolean isPresent(int index) {
        if (layout.kind() == StructureType.Union) {
            return index == unionIndex;
        }
        return !layout.fields().get(index).optional() || values[index] != null;
    }

    /** For a union: the index of the chosen field, or -1 when none is (a null union). */
    public int unionIndex() {
        return unionIndex;
    }

    private int index(String fieldName) {
        int i = layout.indexOf(fieldName);
        if (i < 0) {
            throw new IllegalArgumentException(layout.name() + " has no field " + fieldName + ", its fields are "
                    + layout.fields().stream().map(LayoutField::name).toList());
        }
        return i;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GenericStructure other && layout.typeId().equals(other.layout.typeId())
                && unionIndex == other.unionIndex && Arrays.deepEquals(values, other.values);
    }

    @Override
    public int hashCode() {
        return 31 * layout.typeId().hashCode() + Arrays.deepHashCode(values);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(layout.name()).append('{');
        for (int i = 0; i < values.length; i++) {
            if (!isPresent(i)) {
                continue;
            }
            if (s.charAt(s.length() - 1) != '{') {
                s.append(", ");
            }
            Object v = values[i];
            s.append(layout.fields().get(i).name()).append('=')
                    .append(v != null && v.getClass().isArray() ? Arrays.deepToString(new Object[] {v}) : v);
        }
        return s.append('}').toString();
    }

    /** Sets fields by name; mandatory built-in scalars left unset get their type's default (0, false, null id). */
    public static final class Builder {
        private final StructureLayout layout;
        private final Object[] values;
        private int unionIndex = -1;

        private Builder(StructureLayout layout) {
            this.layout = Objects.requireNonNull(layout, "layout");
            this.values = new Object[layout.fields().size()];
        }

        /**
         * Sets a field; for a union, chooses it (replacing an earlier choice).
         *
         * @throws IllegalArgumentException naming the field when it does not exist or the value does not fit
         */
        public Builder set(String fieldName, Object value) {
            int i = layout.indexOf(fieldName);
            if (i < 0) {
                throw new IllegalArgumentException(layout.name() + " has no field " + fieldName);
            }
            return set(i, value);
        }

        /** Sets the field at {@code index} of the layout. */
        public Builder set(int index, Object value) {
            LayoutField field = layout.fields().get(index);
            if (value != null && !fits(field, value)) {
                throw new IllegalArgumentException(layout.name() + "." + field.name() + " takes "
                        + describe(field) + ", not " + value.getClass().getSimpleName());
            }
            if (layout.kind() == StructureType.Union) {
                if (unionIndex >= 0) {
                    values[unionIndex] = null;
                }
                unionIndex = index;
            }
            values[index] = value;
            return this;
        }

        public GenericStructure build() {
            Object[] copy = values.clone();
            if (layout.kind() != StructureType.Union) {
                for (int i = 0; i < copy.length; i++) {
                    LayoutField field = layout.fields().get(i);
                    if (copy[i] == null && !field.optional() && !field.array()) {
                        copy[i] = defaultOf(field);
                    }
                }
            } else if (unionIndex >= 0 && copy[unionIndex] == null && !layout.fields().get(unionIndex).array()) {
                copy[unionIndex] = defaultOf(layout.fields().get(unionIndex));
            }
            return new GenericStructure(layout, copy, unionIndex);
        }
    }

    static boolean fits(LayoutField field, Object value) {
        FieldEncoding encoding = field.encoding();
        if (encoding instanceof FieldEncoding.Builtin builtin) {
            return (field.array() ? builtin.type().arrayClass() : builtin.type().scalarClass()).isInstance(value);
        }
        if (encoding instanceof FieldEncoding.Enumeration) {
            return field.array() ? value instanceof int[] : value instanceof Integer;
        }
        NodeId encodingId = ((FieldEncoding.Structured) encoding).binaryEncodingId();
        if (field.array()) {
            if (!(value instanceof UaStructure[] array)) {
                return false;
            }
            for (UaStructure element : array) {
                if (element == null || !encodingId.equals(element.binaryEncodingId())) {
                    return false;
                }
            }
            return true;
        }
        return value instanceof UaStructure s && encodingId.equals(s.binaryEncodingId());
    }

    private static String describe(LayoutField field) {
        FieldEncoding encoding = field.encoding();
        String element = encoding instanceof FieldEncoding.Builtin b ? b.type().name()
                : encoding instanceof FieldEncoding.Enumeration ? "an enumeration (Integer)"
                : "a structure with encoding " + ((FieldEncoding.Structured) encoding).binaryEncodingId();
        return field.array() ? "an array of " + element : element;
    }

    /**
     * The value a mandatory scalar has when none was set: zero, false, the null id or name, an empty
     * text, a null Variant; null for Strings, ByteStrings and nested structures (which must be set).
     */
    static Object defaultOf(LayoutField field) {
        FieldEncoding encoding = field.encoding();
        if (encoding instanceof FieldEncoding.Enumeration) {
            return 0;
        }
        if (!(encoding instanceof FieldEncoding.Builtin builtin)) {
            return null;
        }
        return switch (builtin.type()) {
            case Boolean -> Boolean.FALSE;
            case SByte -> (byte) 0;
            case Byte, Int16 -> (short) 0;
            case UInt16, Int32 -> 0;
            case UInt32, Int64, UInt64 -> 0L;
            case Float -> 0f;
            case Double -> 0d;
            case DateTime -> DateTime.MIN_VALUE;
            case NodeId -> NodeId.NULL;
            case ExpandedNodeId -> ExpandedNodeId.NULL;
            case StatusCode -> StatusCode.GOOD;
            case QualifiedName -> QualifiedName.NULL;
            case LocalizedText -> LocalizedText.NULL;
            case Variant -> Variant.NULL;
            default -> null;
        };
    }
}
