package dev.opcua.spring.boot.server.annotation;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.HashSet;
import java.util.Set;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.aot.hint.annotation.ReflectiveProcessor;

/**
 * Reflection hints for a class annotated {@link OpcUaNamespace}, for ahead-of-time processing: the
 * {@link UaBeanIntrospector} lists the declared fields and methods of the class and its superclasses,
 * and of the classes its {@link UaObject} members hold, and turns them into method handles; it reads the
 * components of a record that a {@link UaMethod} returns and the constants of an enum a
 * {@link UaVariable} holds; a record a {@link UaVariable} holds is read by its accessors and rebuilt by
 * its canonical constructor (its structured DataType), with the records and enums of its components. Spring's AOT processing calls this for every bean class that carries the
 * annotation (it is meta-annotated {@code @Reflective}).
 */
final class UaNamespaceReflectiveProcessor implements ReflectiveProcessor {

    /** Public methods named as well: Spring's hint predicates do not count them among the declared ones. */
    private static final MemberCategory[] MEMBERS = { MemberCategory.ACCESS_DECLARED_FIELDS,
            MemberCategory.INVOKE_DECLARED_METHODS, MemberCategory.INVOKE_PUBLIC_METHODS };

    @Override
    public void registerReflectionHints(ReflectionHints hints, AnnotatedElement element) {
        if (element instanceof Class<?> type) {
            registerObject(hints, type, new HashSet<>());
        }
    }

    private static void registerObject(ReflectionHints hints, Class<?> type, Set<Class<?>> seen) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            if (!seen.add(c)) {
                continue;
            }
            hints.registerType(c, MEMBERS);
            for (Field field : c.getDeclaredFields()) {
                if (field.isAnnotationPresent(UaObject.class)) {
                    registerObject(hints, field.getType(), seen);
                } else if (field.isAnnotationPresent(UaVariable.class)) {
                    registerVariable(hints, field.getGenericType(), seen);
                }
            }
            for (Method method : c.getDeclaredMethods()) {
                if (method.isAnnotationPresent(UaObject.class)) {
                    registerObject(hints, method.getReturnType(), seen);
                } else if (method.isAnnotationPresent(UaVariable.class)) {
                    registerVariable(hints, method.getGenericReturnType(), seen);
                } else if (method.isAnnotationPresent(UaMethod.class)) {
                    registerMethod(hints, method);
                }
            }
        }
    }

    /** Record results are read component by component; enum arguments and results by their constants. */
    private static void registerMethod(ReflectionHints hints, Method method) {
        Class<?> result = method.getReturnType();
        if (result.isRecord()) {
            hints.registerType(result, MEMBERS);
            for (var component : result.getRecordComponents()) {
                registerValue(hints, component.getType());
            }
        } else {
            registerValue(hints, result);
        }
        for (Class<?> parameter : method.getParameterTypes()) {
            registerValue(hints, parameter);
        }
    }

    /** A variable's type: a record with its components' types, down to their enums. */
    private static void registerVariable(ReflectionHints hints, Type type, Set<Class<?>> seen) {
        if (type instanceof ParameterizedType parameterized) {
            for (Type argument : parameterized.getActualTypeArguments()) {
                registerVariable(hints, argument, seen); // List<Reading>, Optional<Mode>
            }
            type = parameterized.getRawType();
        }
        if (!(type instanceof Class<?> raw)) {
            return;
        }
        Class<?> element = raw.isArray() ? raw.getComponentType() : raw;
        if (!element.isRecord()) {
            registerValue(hints, element);
        } else if (seen.add(element)) {
            hints.registerType(element, MemberCategory.INVOKE_DECLARED_CONSTRUCTORS, MemberCategory.ACCESS_DECLARED_FIELDS,
                    MemberCategory.INVOKE_DECLARED_METHODS, MemberCategory.INVOKE_PUBLIC_METHODS);
            for (RecordComponent component : element.getRecordComponents()) {
                registerVariable(hints, component.getGenericType(), seen);
            }
        }
    }

    /** {@link Class#getEnumConstants()} calls the enum's values() reflectively. */
    private static void registerValue(ReflectionHints hints, Class<?> type) {
        Class<?> element = type.isArray() ? type.getComponentType() : type;
        if (element.isEnum()) {
            hints.registerType(element, MemberCategory.INVOKE_PUBLIC_METHODS);
        }
    }
}
