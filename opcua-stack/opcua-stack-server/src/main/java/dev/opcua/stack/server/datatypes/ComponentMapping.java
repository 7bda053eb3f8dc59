package dev.opcua.stack.server.datatypes;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.encoding.generic.GenericStructure;
import java.lang.annotation.Annotation;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * How one record component becomes a structure field (Part 3, 8.51 StructureField; Part 6, 5.2.6),
 * named as the component with its first letter capitalised: a built-in type, an enumeration (an Int32 on the wire, the constant's ordinal) or a nested
 * structure (another record); a scalar, or a one-dimensional array held in a Java array or a
 * {@link List}; optional when the component is an {@link Optional} or carries an annotation named
 * {@code Nullable} (any package: JSpecify, Jakarta, Spring).
 */
final class ComponentMapping {

    /** Supported Java types, for messages. */
    static final String SUPPORTED = "boolean, byte, short, int, long, float, double (or their wrappers), String, "
            + "java.time.Instant, java.util.UUID, byte[], the stack's DateTime, ByteString, NodeId, ExpandedNodeId, "
            + "StatusCode, QualifiedName and LocalizedText, enums, records, arrays or Lists of these, and Optional "
            + "of any of them";

    enum Kind { BUILTIN, ENUM, RECORD }

    enum Shape { SCALAR, ARRAY, LIST }

    /** Java class (boxed) to its built-in type. */
    private static final Map<Class<?>, BuiltinType> BUILTINS = new LinkedHashMap<>();

    static {
        BUILTINS.put(Boolean.class, BuiltinType.Boolean);
        BUILTINS.put(Byte.class, BuiltinType.SByte);
        BUILTINS.put(Short.class, BuiltinType.Int16);
        BUILTINS.put(Integer.class, BuiltinType.Int32);
        BUILTINS.put(Long.class, BuiltinType.Int64);
        BUILTINS.put(Float.class, BuiltinType.Float);
        BUILTINS.put(Double.class, BuiltinType.Double);
        BUILTINS.put(String.class, BuiltinType.String);
        BUILTINS.put(Instant.class, BuiltinType.DateTime);
        BUILTINS.put(DateTime.class, BuiltinType.DateTime);
        BUILTINS.put(UUID.class, BuiltinType.Guid);
        BUILTINS.put(byte[].class, BuiltinType.ByteString);
        BUILTINS.put(ByteString.class, BuiltinType.ByteString);
        BUILTINS.put(NodeId.class, BuiltinType.NodeId);
        BUILTINS.put(ExpandedNodeId.class, BuiltinType.ExpandedNodeId);
        BUILTINS.put(StatusCode.class, BuiltinType.StatusCode);
        BUILTINS.put(QualifiedName.class, BuiltinType.QualifiedName);
        BUILTINS.put(LocalizedText.class, BuiltinType.LocalizedText);
    }

    final String name;
    final Kind kind;
    final Shape shape;
    final boolean optional;
    /** Whether the Java value is an {@link Optional} around the value. */
    final boolean wrapped;
    /** The Java class of the value or of an element; primitive for primitive arrays and components. */
    final Class<?> element;
    /** For {@link Kind#BUILTIN}: the built-in type. */
    final BuiltinType builtin;

    private ComponentMapping(String name, Kind kind, Shape shape, boolean optional, boolean wrapped, Class<?> element,
            BuiltinType builtin) {
        this.name = name;
        this.kind = kind;
        this.shape = shape;
        this.optional = optional;
        this.wrapped = wrapped;
        this.element = element;
        this.builtin = builtin;
    }

    /**
     * The mapping of a component.
     *
     * @param where names the record, for messages
     * @throws IllegalArgumentException naming the record, the component and its type when it is not supported
     */
    static ComponentMapping of(RecordComponent component, String where) {
        // structure fields are PascalCase, as the standard's (Part 5, 12): speed -> Speed
        String name = Character.toUpperCase(component.getName().charAt(0)) + component.getName().substring(1);
        String at = where + " component " + component.getName();
        Type type = component.getGenericType();
        boolean wrapped = false;
        if (raw(type) == Optional.class) {
            type = argument(type, at);
            wrapped = true;
        }
        boolean nullable = nullable(component);
        if (nullable && component.getType().isPrimitive()) {
            throw new IllegalArgumentException(at + ": a primitive " + component.getType() + " cannot be @Nullable; "
                    + "use its wrapper class");
        }
        Class<?> raw = raw(type);
        Shape shape = Shape.SCALAR;
        Class<?> element = raw;
        if (raw == List.class) {
            element = raw(argument(type, at));
            shape = Shape.LIST;
        } else if (raw != null && raw.isArray() && raw != byte[].class) {
            element = raw.getComponentType();
            shape = Shape.ARRAY;
        }
        if (element == null || element == Optional.class || element == List.class
                || (element.isArray() && element != byte[].class)) {
            throw new IllegalArgumentException(at + ": type " + component.getGenericType().getTypeName()
                    + " is not supported (one dimension at most, Optional only outside); supported are " + SUPPORTED);
        }
        if (element.isRecord()) {
            return new ComponentMapping(name, Kind.RECORD, shape, wrapped || nullable, wrapped, element, null);
        }
        if (element.isEnum()) {
            return new ComponentMapping(name, Kind.ENUM, shape, wrapped || nullable, wrapped, element, null);
        }
        BuiltinType builtin = BUILTINS.get(box(element));
        if (builtin == null) {
            throw new IllegalArgumentException(at + ": type " + component.getGenericType().getTypeName()
                    + " is not supported; supported are " + SUPPORTED);
        }
        return new ComponentMapping(name, Kind.BUILTIN, shape, wrapped || nullable, wrapped, element, builtin);
    }

    /** Whether the component, or its type, carries an annotation whose simple name is Nullable. */
    private static boolean nullable(RecordComponent component) {
        for (Annotation a : component.getAnnotations()) {
            if (a.annotationType().getSimpleName().equals("Nullable")) {
                return true;
            }
        }
        for (Annotation a : component.getAnnotatedType().getAnnotations()) {
            if (a.annotationType().getSimpleName().equals("Nullable")) {
                return true;
            }
        }
        return false;
    }

    boolean array() {
        return shape != Shape.SCALAR;
    }

    /**
     * The Java value of the component as the field value {@link GenericStructure} holds.
     *
     * @param records the mapping of a nested record class
     * @throws IllegalArgumentException naming the component when a value cannot be converted
     */
    Object toStack(Object value, Function<Class<?>, RecordMapping> records) {
        if (wrapped && value != null) {
            value = ((Optional<?>) value).orElse(null);
        }
        if (value == null) {
            return null;
        }
        if (shape == Shape.SCALAR) {
            return scalarToStack(value, records);
        }
        int length = shape == Shape.LIST ? ((List<?>) value).size() : Array.getLength(value);
        Object array = switch (kind) {
            case BUILTIN -> Array.newInstance(builtin.arrayClass().getComponentType(), length);
            case ENUM -> new int[length];
            case RECORD -> new UaStructure[length];
        };
        boolean primitive = array.getClass().getComponentType().isPrimitive();
        for (int i = 0; i < length; i++) {
            Object item = shape == Shape.LIST ? ((List<?>) value).get(i) : Array.get(value, i);
            if (item == null) {
                if (primitive || kind == Kind.RECORD) {
                    throw new IllegalArgumentException(name + ": element " + i + " is null; an array of "
                            + (kind == Kind.RECORD ? "structures" : builtin == null ? "enumerations" : builtin)
                            + " has no nulls");
                }
                continue;
            }
            Array.set(array, i, scalarToStack(item, records));
        }
        return array;
    }

    private Object scalarToStack(Object value, Function<Class<?>, RecordMapping> records) {
        return switch (kind) {
            case ENUM -> ((Enum<?>) value).ordinal();
            case RECORD -> records.apply(element).toStructure((Record) value, records);
            case BUILTIN -> value instanceof Instant instant ? DateTime.ofInstant(instant)
                    : value instanceof byte[] bytes ? ByteString.of(bytes) : value;
        };
    }

    /**
     * The Java value of a field value.
     *
     * @throws UaException BadOutOfRange when an enumeration value is no ordinal of the enum
     */
    Object fromStack(Object value, Function<Class<?>, RecordMapping> records) {
        if (value == null) {
            return wrapped ? Optional.empty() : null;
        }
        Object result;
        if (shape == Shape.SCALAR) {
            result = scalarFromStack(value, records);
        } else {
            int length = Array.getLength(value);
            if (shape == Shape.LIST) {
                List<Object> list = new ArrayList<>(length);
                for (int i = 0; i < length; i++) {
                    Object item = Array.get(value, i);
                    list.add(item == null ? null : scalarFromStack(item, records));
                }
                result = Collections.unmodifiableList(list);
            } else {
                Object array = Array.newInstance(element, length);
                for (int i = 0; i < length; i++) {
                    Object item = Array.get(value, i);
                    if (item != null) {
                        Array.set(array, i, scalarFromStack(item, records));
                    }
                }
                result = array;
            }
        }
        return wrapped ? Optional.of(result) : result;
    }

    private Object scalarFromStack(Object value, Function<Class<?>, RecordMapping> records) {
        switch (kind) {
            case ENUM -> {
                Object[] constants = element.getEnumConstants();
                int ordinal = (Integer) value;
                if (ordinal < 0 || ordinal >= constants.length) {
                    throw new UaException(StatusCodes.BadOutOfRange, name + ": " + ordinal + " is no value of "
                            + element.getSimpleName() + ", its values are 0.." + (constants.length - 1));
                }
                return constants[ordinal];
            }
            case RECORD -> {
                return records.apply(element).fromStructure((GenericStructure) value, records);
            }
            default -> {
                if (element == Instant.class) {
                    return ((DateTime) value).toInstant();
                }
                if (element == byte[].class) {
                    return ((ByteString) value).bytes();
                }
                return value;
            }
        }
    }

    private static Class<?> raw(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> c) {
            return c;
        }
        return null;
    }

    private static Type argument(Type type, String at) {
        if (type instanceof ParameterizedType p && p.getActualTypeArguments().length == 1) {
            return p.getActualTypeArguments()[0];
        }
        throw new IllegalArgumentException(at + ": type " + type.getTypeName() + " needs its element type, e.g. "
                + "List<Double>");
    }

    private static Class<?> box(Class<?> type) {
        if (!type.isPrimitive()) {
            return type;
        }
        return MethodType.methodType(type).wrap().returnType();
    }
}
