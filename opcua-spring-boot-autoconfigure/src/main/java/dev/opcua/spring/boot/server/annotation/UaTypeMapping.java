package dev.opcua.spring.boot.server.annotation;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Which DataType a Java type maps to, and the converter between the two (see {@link UaVariable}).
 *
 * <p>Enums map to Int32, the constant's ordinal, because Part 3, 8.14 gives enumerated values as
 * Int32 and every client can read and write one; {@code dataType = String} maps them to the
 * constant's name instead. Unsigned DataTypes are held in the next wider signed Java type, as the
 * stack holds them, and must be asked for with {@code dataType}.
 */
final class UaTypeMapping {

    /** The Java types a value may have, for error messages. */
    static final String SUPPORTED = "boolean, byte, short, int, long, float, double (or their wrappers), String, "
            + "java.time.Instant, java.util.UUID, byte[], an enum, the stack's DateTime, ByteString, NodeId, "
            + "QualifiedName and LocalizedText, and arrays or Lists of these";

    private static final UaValueConverter.ScalarCodec IDENTITY = new UaValueConverter.ScalarCodec() {
        @Override
        public Object toStack(Object javaValue) {
            return javaValue;
        }

        @Override
        public Object fromStack(Object stackValue) {
            return stackValue;
        }
    };

    private static final UaValueConverter.ScalarCodec INSTANT = new UaValueConverter.ScalarCodec() {
        @Override
        public Object toStack(Object javaValue) {
            return DateTime.ofInstant((Instant) javaValue);
        }

        @Override
        public Object fromStack(Object stackValue) {
            return ((DateTime) stackValue).toInstant();
        }
    };

    private static final UaValueConverter.ScalarCodec BYTES = new UaValueConverter.ScalarCodec() {
        @Override
        public Object toStack(Object javaValue) {
            return ByteString.of((byte[]) javaValue);
        }

        @Override
        public Object fromStack(Object stackValue) {
            return ((ByteString) stackValue).bytes();
        }
    };

    /** Java class (boxed) to the DataTypes it may hold, the inferred one first. */
    private static final Map<Class<?>, List<BuiltinType>> SCALARS = new LinkedHashMap<>();

    static {
        SCALARS.put(Boolean.class, List.of(BuiltinType.Boolean));
        SCALARS.put(Byte.class, List.of(BuiltinType.SByte));
        SCALARS.put(Short.class, List.of(BuiltinType.Int16, BuiltinType.Byte));
        SCALARS.put(Integer.class, List.of(BuiltinType.Int32, BuiltinType.UInt16));
        SCALARS.put(Long.class, List.of(BuiltinType.Int64, BuiltinType.UInt32, BuiltinType.UInt64));
        SCALARS.put(Float.class, List.of(BuiltinType.Float));
        SCALARS.put(Double.class, List.of(BuiltinType.Double));
        SCALARS.put(String.class, List.of(BuiltinType.String));
        SCALARS.put(Instant.class, List.of(BuiltinType.DateTime));
        SCALARS.put(UUID.class, List.of(BuiltinType.Guid));
        SCALARS.put(byte[].class, List.of(BuiltinType.ByteString));
        SCALARS.put(DateTime.class, List.of(BuiltinType.DateTime));
        SCALARS.put(ByteString.class, List.of(BuiltinType.ByteString));
        SCALARS.put(NodeId.class, List.of(BuiltinType.NodeId));
        SCALARS.put(QualifiedName.class, List.of(BuiltinType.QualifiedName));
        SCALARS.put(LocalizedText.class, List.of(BuiltinType.LocalizedText));
    }

    private static final List<BuiltinType> ENUM_TYPES = List.of(BuiltinType.Int32, BuiltinType.String);

    private UaTypeMapping() {
    }

    /**
     * The converter of a Java type.
     *
     * @param javaType the generic type of the field, getter, parameter or record component
     * @param override the DataType asked for, {@code Null} to infer it; for an array, of its elements
     * @param where names the bean and the member, for the error message
     * @throws OpcUaAnnotationException naming {@code where} and the type when it is not supported
     *     or the override does not fit it
     */
    static UaValueConverter resolve(Type javaType, BuiltinType override, String where) {
        Class<?> raw = rawClass(javaType);
        if (raw == null) {
            throw unsupported(javaType, where);
        }
        if (raw != byte[].class && raw.isArray()) {
            Class<?> element = raw.getComponentType();
            if (element.isArray() && element != byte[].class) {
                throw new OpcUaAnnotationException(where + ": type " + javaType.getTypeName()
                        + " has more than one dimension; supported are " + SUPPORTED);
            }
            BuiltinType type = pick(element, javaType, override, where);
            UaValueConverter.ScalarCodec codec = codec(element, type);
            boolean identity = codec == IDENTITY && raw == type.arrayClass();
            return UaValueConverter.array(type, raw, codec, identity);
        }
        if (raw == List.class) {
            Type elementType = listElement(javaType);
            Class<?> element = elementType == null ? null : rawClass(elementType);
            if (element == null || (element.isArray() && element != byte[].class) || element == List.class) {
                throw new OpcUaAnnotationException(where + ": type " + javaType.getTypeName()
                        + " needs an element type of its own, e.g. List<Double>; supported are " + SUPPORTED);
            }
            BuiltinType type = pick(element, javaType, override, where);
            return UaValueConverter.list(type, element, codec(element, type));
        }
        BuiltinType type = pick(raw, javaType, override, where);
        return UaValueConverter.scalar(type, raw, codec(raw, type));
    }

    private static BuiltinType pick(Class<?> element, Type javaType, BuiltinType override, String where) {
        List<BuiltinType> allowed = element.isEnum() ? ENUM_TYPES : SCALARS.get(box(element));
        if (allowed == null) {
            throw unsupported(javaType, where);
        }
        if (override == null || override == BuiltinType.Null) {
            return allowed.get(0);
        }
        if (!allowed.contains(override)) {
            throw new OpcUaAnnotationException(where + ": dataType " + override + " does not fit the Java type "
                    + javaType.getTypeName() + "; allowed are " + allowed.stream().map(BuiltinType::name)
                    .collect(Collectors.joining(", ")));
        }
        return override;
    }

    private static UaValueConverter.ScalarCodec codec(Class<?> element, BuiltinType type) {
        if (element.isEnum()) {
            return enumCodec(element, type == BuiltinType.String);
        }
        if (element == Instant.class) {
            return INSTANT;
        }
        if (element == byte[].class) {
            return BYTES;
        }
        return IDENTITY;
    }

    private static UaValueConverter.ScalarCodec enumCodec(Class<?> enumClass, boolean byName) {
        Object[] constants = enumClass.getEnumConstants();
        return new UaValueConverter.ScalarCodec() {
            @Override
            public Object toStack(Object javaValue) {
                Enum<?> constant = (Enum<?>) javaValue;
                return byName ? constant.name() : (Object) constant.ordinal();
            }

            @Override
            public Object fromStack(Object stackValue) {
                if (!byName) {
                    int ordinal = (Integer) stackValue;
                    if (ordinal < 0 || ordinal >= constants.length) {
                        throw new UaException(StatusCodes.BadOutOfRange, ordinal + " is not an ordinal of "
                                + enumClass.getSimpleName() + ", allowed 0.." + (constants.length - 1));
                    }
                    return constants[ordinal];
                }
                for (Object constant : constants) {
                    if (((Enum<?>) constant).name().equals(stackValue)) {
                        return constant;
                    }
                }
                throw new UaException(StatusCodes.BadOutOfRange, "'" + stackValue + "' is not a constant of "
                        + enumClass.getSimpleName());
            }
        };
    }

    private static Class<?> rawClass(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> c) {
            return c;
        }
        if (type instanceof GenericArrayType g) {
            Class<?> component = rawClass(g.getGenericComponentType());
            return component == null ? null : component.arrayType();
        }
        if (type instanceof WildcardType w && w.getUpperBounds().length == 1) {
            return rawClass(w.getUpperBounds()[0]);
        }
        return null;
    }

    private static Type listElement(Type listType) {
        if (listType instanceof ParameterizedType p && p.getActualTypeArguments().length == 1) {
            return p.getActualTypeArguments()[0];
        }
        return null;
    }

    private static Class<?> box(Class<?> type) {
        if (!type.isPrimitive()) {
            return type;
        }
        if (type == boolean.class) {
            return Boolean.class;
        }
        if (type == byte.class) {
            return Byte.class;
        }
        if (type == short.class) {
            return Short.class;
        }
        if (type == int.class) {
            return Integer.class;
        }
        if (type == long.class) {
            return Long.class;
        }
        if (type == float.class) {
            return Float.class;
        }
        if (type == double.class) {
            return Double.class;
        }
        return type; // char, void: not supported
    }

    private static OpcUaAnnotationException unsupported(Type javaType, String where) {
        return new OpcUaAnnotationException(where + ": type " + javaType.getTypeName()
                + " is not supported; supported are " + SUPPORTED);
    }
}
