package dev.opcua.spring.boot.server.annotation;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
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
 * {@link UaVariable} holds. Spring's AOT processing calls this for every bean class that carries the
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
                    registerValue(hints, field.getType());
                }
            }
            for (Method method : c.getDeclaredMethods()) {
                if (method.isAnnotationPresent(UaObject.class)) {
                    registerObject(hints, method.getReturnType(), seen);
                } else if (method.isAnnotationPresent(UaVariable.class)) {
                    registerValue(hints, method.getReturnType());
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

    /** {@link Class#getEnumConstants()} calls the enum's values() reflectively. */
    private static void registerValue(ReflectionHints hints, Class<?> type) {
        Class<?> element = type.isArray() ? type.getComponentType() : type;
        if (element.isEnum()) {
            hints.registerType(element, MemberCategory.INVOKE_PUBLIC_METHODS);
        }
    }
}
