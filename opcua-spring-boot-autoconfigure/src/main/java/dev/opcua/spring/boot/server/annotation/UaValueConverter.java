package dev.opcua.spring.boot.server.annotation;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;

/**
 * Converts between the values of one Java type and Variants of one built-in DataType: a scalar,
 * or a one-dimensional array held in a Java array or a {@link List}. Built once per member by
 * {@link UaTypeMapping}; stateless and thread-safe.
 */
final class UaValueConverter {

    /** How a Java value of a scalar type becomes the stack's value and back. */
    interface ScalarCodec {
        Object toStack(Object javaValue);

        /** @throws UaException BadOutOfRange when the stack's value has no Java counterpart */
        Object fromStack(Object stackValue);
    }

    private enum Shape { SCALAR, ARRAY, LIST, RECORD }

    private final BuiltinType type;
    private final Shape shape;
    private final Class<?> javaClass;
    private final Class<?> javaElementClass;
    private final ScalarCodec codec;
    private final boolean identity;

    private UaValueConverter(BuiltinType type, Shape shape, Class<?> javaClass, Class<?> javaElementClass,
            ScalarCodec codec, boolean identity) {
        this.type = type;
        this.shape = shape;
        this.javaClass = javaClass;
        this.javaElementClass = javaElementClass;
        this.codec = codec;
        this.identity = identity;
    }

    static UaValueConverter scalar(BuiltinType type, Class<?> javaClass, ScalarCodec codec) {
        return new UaValueConverter(type, Shape.SCALAR, javaClass, javaClass, codec, false);
    }

    /** An array; {@code identity} when the Java array is of the stack's array class and needs no element conversion. */
    static UaValueConverter array(BuiltinType type, Class<?> javaArrayClass, ScalarCodec codec, boolean identity) {
        return new UaValueConverter(type, Shape.ARRAY, javaArrayClass, javaArrayClass.getComponentType(), codec,
                identity);
    }

    static UaValueConverter list(BuiltinType type, Class<?> javaElementClass, ScalarCodec codec) {
        return new UaValueConverter(type, Shape.LIST, List.class, javaElementClass, codec, false);
    }

    /**
     * A record, whose structured DataType the node manager defines ({@code RecordDataTypeManager}) and
     * which it converts itself: {@link #toVariant} and {@link #fromVariant} are not for it.
     */
    static UaValueConverter record(Class<?> recordClass) {
        return new UaValueConverter(BuiltinType.ExtensionObject, Shape.RECORD, recordClass, recordClass, null, false);
    }

    /** The record class of a record variable, null for the others. */
    @SuppressWarnings("unchecked")
    Class<? extends Record> recordType() {
        return shape == Shape.RECORD ? (Class<? extends Record>) javaClass : null;
    }

    BuiltinType builtinType() {
        return type;
    }

    NodeId dataType() {
        return type.dataTypeId();
    }

    /** ValueRank (Part 3, 5.6.2): -1 for a scalar, 1 for an array. */
    int valueRank() {
        return shape == Shape.SCALAR || shape == Shape.RECORD ? -1 : 1;
    }

    /** Whether a null cannot be converted to the Java type (a primitive). */
    boolean isPrimitive() {
        return javaClass.isPrimitive();
    }

    /** The Java value as a Variant; null gives the null Variant. */
    Variant toVariant(Object value) {
        if (value == null) {
            return Variant.NULL;
        }
        if (shape == Shape.RECORD) {
            throw new IllegalStateException("a record is converted by the DataTypes of its node manager");
        }
        if (shape == Shape.SCALAR) {
            return Variant.ofScalar(type, codec.toStack(value));
        }
        if (identity) {
            return Variant.ofArray(type, cloneArray(value));
        }
        int length = shape == Shape.LIST ? ((List<?>) value).size() : Array.getLength(value);
        Class<?> stackElement = type.arrayClass().getComponentType();
        Object array = Array.newInstance(stackElement, length);
        for (int i = 0; i < length; i++) {
            Object element = shape == Shape.LIST ? ((List<?>) value).get(i) : Array.get(value, i);
            if (element == null) {
                if (stackElement.isPrimitive()) {
                    throw new IllegalArgumentException("element " + i + " is null, a " + type + " array has no nulls");
                }
                continue;
            }
            Array.set(array, i, codec.toStack(element));
        }
        return Variant.ofArray(type, array);
    }

    /**
     * The Java value of a Variant that fits the DataType and ValueRank (the stack checked that);
     * the null Variant gives null.
     *
     * @throws UaException BadOutOfRange when a value has no Java counterpart (an enum ordinal)
     */
    Object fromVariant(Variant value) {
        if (value == null || value.isNull()) {
            return null;
        }
        Object stack = value.value();
        if (shape == Shape.RECORD) {
            throw new IllegalStateException("a record is converted by the DataTypes of its node manager");
        }
        if (shape == Shape.SCALAR) {
            return codec.fromStack(stack);
        }
        if (identity) {
            return cloneArray(stack);
        }
        int length = Array.getLength(stack);
        if (shape == Shape.LIST) {
            List<Object> list = new ArrayList<>(length);
            for (int i = 0; i < length; i++) {
                Object element = Array.get(stack, i);
                list.add(element == null ? null : codec.fromStack(element));
            }
            return list;
        }
        Object array = Array.newInstance(javaElementClass, length);
        for (int i = 0; i < length; i++) {
            Object element = Array.get(stack, i);
            if (element == null) {
                if (javaElementClass.isPrimitive()) {
                    throw new UaException(StatusCodes.BadOutOfRange, "element " + i + " is null");
                }
                continue;
            }
            Array.set(array, i, codec.fromStack(element));
        }
        return array;
    }

    /** A copy, so that neither the bean nor the stack sees the other change the array later. */
    private static Object cloneArray(Object array) {
        int length = Array.getLength(array);
        Object copy = Array.newInstance(array.getClass().getComponentType(), length);
        System.arraycopy(array, 0, copy, 0, length);
        return copy;
    }
}
