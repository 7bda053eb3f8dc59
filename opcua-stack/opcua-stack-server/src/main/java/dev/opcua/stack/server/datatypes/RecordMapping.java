package dev.opcua.stack.server.datatypes;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.encoding.generic.GenericStructure;
import dev.opcua.stack.core.encoding.generic.StructureLayout;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.StatusCode;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * One record class as a structure: its components in declaration order (the fields of its
 * StructureDefinition, Part 3, 8.48), the handles that read them and the canonical constructor that
 * makes a new instance from a decoded value. Resolved once; thread-safe.
 */
final class RecordMapping {

    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

    final Class<?> type;
    final List<ComponentMapping> components;
    private final MethodHandle[] accessors;
    private final MethodHandle constructor;
    /** Set once the namespace index is known. */
    private volatile StructureLayout layout;

    private RecordMapping(Class<?> type, List<ComponentMapping> components, MethodHandle[] accessors,
            MethodHandle constructor) {
        this.type = type;
        this.components = components;
        this.accessors = accessors;
        this.constructor = constructor;
    }

    /**
     * @throws IllegalArgumentException naming the record and the component when one is not supported or
     *     the record cannot be accessed
     */
    static RecordMapping of(Class<?> type) {
        String where = "record " + type.getName();
        RecordComponent[] declared = type.getRecordComponents();
        List<ComponentMapping> components = new ArrayList<>(declared.length);
        MethodHandle[] accessors = new MethodHandle[declared.length];
        Class<?>[] parameterTypes = new Class<?>[declared.length];
        for (int i = 0; i < declared.length; i++) {
            components.add(ComponentMapping.of(declared[i], where));
            Method accessor = declared[i].getAccessor();
            accessors[i] = handle(accessor, where).asType(MethodType.methodType(Object.class, Object.class));
            parameterTypes[i] = declared[i].getType();
        }
        MethodHandle constructor;
        try {
            Constructor<?> canonical = type.getDeclaredConstructor(parameterTypes);
            if (!canonical.trySetAccessible()) {
                throw new IllegalArgumentException(where + ": its canonical constructor cannot be accessed; make the "
                        + "record public or open its package");
            }
            constructor = LOOKUP.unreflectConstructor(canonical)
                    .asType(MethodType.genericMethodType(declared.length))
                    .asSpreader(Object[].class, declared.length);
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new IllegalArgumentException(where + ": its canonical constructor cannot be used: " + e, e);
        }
        return new RecordMapping(type, List.copyOf(components), accessors, constructor);
    }

    private static MethodHandle handle(Method accessor, String where) {
        if (!accessor.trySetAccessible()) {
            throw new IllegalArgumentException(where + ": accessor " + accessor.getName() + "() cannot be accessed; "
                    + "make the record public or open its package");
        }
        try {
            return LOOKUP.unreflect(accessor);
        } catch (IllegalAccessException e) {
            throw new IllegalArgumentException(where + ": accessor " + accessor.getName() + "() cannot be used: " + e,
                    e);
        }
    }

    String name() {
        return type.getSimpleName();
    }

    boolean hasOptionalFields() {
        return components.stream().anyMatch(c -> c.optional);
    }

    StructureLayout layout() {
        StructureLayout bound = layout;
        if (bound == null) {
            throw new IllegalStateException("the DataType of " + type.getName() + " gets its NodeId when the server "
                    + "starts");
        }
        return bound;
    }

    void bind(StructureLayout layout) {
        this.layout = layout;
    }

    /** The record as a structure value of its layout. */
    GenericStructure toStructure(Record value, Function<Class<?>, RecordMapping> records) {
        GenericStructure.Builder builder = GenericStructure.builder(layout());
        for (int i = 0; i < accessors.length; i++) {
            Object component;
            try {
                component = (Object) accessors[i].invokeExact((Object) value);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException("reading " + type.getSimpleName() + "." + components.get(i).name
                        + " failed: " + e, e);
            }
            builder.set(i, components.get(i).toStack(component, records));
        }
        return builder.build();
    }

    /**
     * A new record from a structure value of this record's DataType.
     *
     * @throws UaException BadTypeMismatch when the value is of another DataType, BadOutOfRange when a
     *     component has no Java value or the record's constructor refuses the values (IllegalArgumentException)
     */
    Record fromStructure(GenericStructure value, Function<Class<?>, RecordMapping> records) {
        StructureLayout own = layout();
        if (!own.typeId().equals(value.layout().typeId())) {
            throw new UaException(StatusCodes.BadTypeMismatch, "a " + value.layout().name() + " is no "
                    + own.name());
        }
        Object[] arguments = new Object[components.size()];
        for (int i = 0; i < arguments.length; i++) {
            arguments[i] = components.get(i).fromStack(value.get(i), records);
            if (arguments[i] == null && type.getRecordComponents()[i].getType().isPrimitive()) {
                throw new UaException(StatusCodes.BadTypeMismatch, own.name() + "." + components.get(i).name
                        + " is missing");
            }
        }
        try {
            return (Record) (Object) constructor.invokeExact(arguments);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new UaException(StatusCode.of(StatusCodes.BadOutOfRange), own.name() + " refused the value: "
                    + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("constructing " + type.getName() + " failed: " + e, e);
        }
    }
}
