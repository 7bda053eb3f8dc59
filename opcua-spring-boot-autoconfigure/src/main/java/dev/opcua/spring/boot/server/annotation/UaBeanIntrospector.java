package dev.opcua.spring.boot.server.annotation;

import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.server.datatypes.RecordDataTypeManager;
import dev.opcua.stack.server.roles.WellKnownRole;
import dev.opcua.stack.server.session.Identity;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.util.ClassUtils;

/**
 * Turns an {@link OpcUaNamespace} bean into a {@link UaObjectModel}: finds the annotated members of
 * its class and its superclasses, infers their DataTypes and resolves the method handles that read,
 * write and call them, once. Nodes come in this order: superclass members first, per class the
 * fields in declaration order, then the methods by name. Every mistake fails here, with an {@link OpcUaAnnotationException}
 * naming the bean, the member, the value at fault and what is allowed.
 */
final class UaBeanIntrospector {

    /** The DataTypes a limit alarm can compare with its limits. */
    private static final Set<BuiltinType> NUMERIC = EnumSet.of(
            BuiltinType.SByte, BuiltinType.Byte,
            BuiltinType.Int16, BuiltinType.UInt16,
            BuiltinType.Int32, BuiltinType.UInt32,
            BuiltinType.Int64, BuiltinType.UInt64,
            BuiltinType.Float, BuiltinType.Double);

    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    private static final MethodType GETTER = MethodType.methodType(Object.class);
    private static final MethodType SETTER = MethodType.methodType(void.class, Object.class);
    private static final MethodType READER = MethodType.methodType(Object.class, Object.class);

    private static final Comparator<Method> METHOD_ORDER = Comparator.comparing(Method::getName)
            .thenComparingInt(Method::getParameterCount).thenComparing(Method::toGenericString);

    private final String beanLabel;
    /** The objects from the bean down to the one being introspected, to refuse cycles. */
    private final Set<Object> ancestors = Collections.newSetFromMap(new IdentityHashMap<>());

    private UaBeanIntrospector(String beanLabel) {
        this.beanLabel = beanLabel;
    }

    /**
     * The object model of a bean.
     *
     * @param beanName the bean's name, for messages
     * @throws OpcUaAnnotationException when the bean's class has no {@link OpcUaNamespace} or a member is wrong
     */
    static UaObjectModel introspect(String beanName, Object bean) {
        Class<?> type = ClassUtils.getUserClass(bean);
        String label = "bean '" + beanName + "' (" + type.getName() + ")";
        OpcUaNamespace namespace = type.getAnnotation(OpcUaNamespace.class);
        if (namespace == null) {
            throw new OpcUaAnnotationException(label + " is not annotated @OpcUaNamespace");
        }
        String name = namespace.name().isEmpty() ? type.getSimpleName() : namespace.name();
        checkName(name, label + " @OpcUaNamespace(name)");
        return new UaBeanIntrospector(label).object(name, namespace.displayName(), namespace.description(), bean, "",
                null, label);
    }

    private UaObjectModel object(String browseName, String displayName, String description, Object instance,
            String javaPath, ExpandedNodeId type, String where) {
        ancestors.add(instance);
        List<UaVariableModel> variables = new ArrayList<>();
        List<UaMethodModel> methods = new ArrayList<>();
        List<UaObjectModel> objects = new ArrayList<>();
        Map<String, String> names = new LinkedHashMap<>();
        for (Class<?> c : hierarchy(ClassUtils.getUserClass(instance))) {
            for (Field field : c.getDeclaredFields()) {
                if (!field.isSynthetic()) {
                    member(field, instance, javaPath, names, variables, methods, objects);
                }
            }
            // the JVM gives methods in no fixed order: sorted by name, the nodes keep one order
            Method[] declared = c.getDeclaredMethods();
            Arrays.sort(declared, METHOD_ORDER);
            for (Method method : declared) {
                if (!method.isSynthetic() && !method.isBridge()) {
                    member(method, instance, javaPath, names, variables, methods, objects);
                }
            }
        }
        ancestors.remove(instance);
        if (type != null && (!methods.isEmpty() || !objects.isEmpty())) {
            throw new OpcUaAnnotationException(where + ": an object of the type " + type + " binds its type's "
                    + "variables only; move the @UaMethod and @UaObject members "
                    + (methods.isEmpty() ? objects.get(0).browseName() : methods.get(0).browseName())
                    + " to an untyped object");
        }
        return new UaObjectModel(browseName, text(displayName, browseName), text(description, null), instance,
                javaPath, List.copyOf(variables), List.copyOf(methods), List.copyOf(objects), type, where);
    }

    private <M extends AccessibleObject & Member> void member(M member, Object instance, String javaPath,
            Map<String, String> names, List<UaVariableModel> variables, List<UaMethodModel> methods,
            List<UaObjectModel> objects) {
        UaVariable variable = member.getAnnotation(UaVariable.class);
        UaObject object = member.getAnnotation(UaObject.class);
        UaMethod method = member.getAnnotation(UaMethod.class);
        int count = (variable != null ? 1 : 0) + (object != null ? 1 : 0) + (method != null ? 1 : 0);
        if (count == 0) {
            if (member.getAnnotation(UaLimitAlarm.class) != null || member.getAnnotation(UaOffNormalAlarm.class) != null) {
                throw new OpcUaAnnotationException(beanLabel + " member " + member.getName()
                        + ": @UaLimitAlarm and @UaOffNormalAlarm belong on a @UaVariable");
            }
            return;
        }
        String javaName = member instanceof Method m && method == null ? propertyName(m) : member.getName();
        String where = beanLabel + " member " + (javaPath.isEmpty() ? "" : javaPath + ".") + javaName
                + (member instanceof Method ? " (" + member.getName() + "())" : "");
        if (count > 1) {
            throw new OpcUaAnnotationException(where + ": carries more than one of @UaVariable, @UaObject and "
                    + "@UaMethod; a member is one node");
        }
        if (Modifier.isStatic(member.getModifiers())) {
            throw new OpcUaAnnotationException(where + ": is static; only instance members become nodes");
        }
        String name = variable != null ? variable.name() : object != null ? object.name() : method.name();
        // OPC UA browse names are PascalCase (Part 5 throughout): speed -> Speed, start() -> Start.
        String browseName = name.isEmpty() ? capitalized(method != null ? member.getName() : javaName) : name;
        checkName(browseName, where);
        String taken = names.putIfAbsent(browseName, where);
        if (taken != null) {
            throw new OpcUaAnnotationException(where + ": name '" + browseName + "' is taken by " + taken
                    + "; the nodes of one object need different names");
        }
        accessible(member, where);
        if (variable != null) {
            variables.add(variable(variable, member, instance, browseName, javaName, where));
        } else if (method != null) {
            methods.add(method(method, (Method) member, instance, browseName, where));
        } else {
            Object nested = read(getter(member, instance, where), where);
            if (nested == null) {
                throw new OpcUaAnnotationException(where + ": @UaObject member holds null; it must hold an object "
                        + "when the node manager is built");
            }
            if (ancestors.contains(nested)) {
                throw new OpcUaAnnotationException(where + ": @UaObject member holds an object that contains it "
                        + "(a cycle); objects must form a tree");
            }
            objects.add(object(browseName, object.displayName(), object.description(), nested,
                    (javaPath.isEmpty() ? "" : javaPath + ".") + javaName, type(object.type(), where), where));
        }
    }

    private UaVariableModel variable(UaVariable annotation, Member member, Object instance, String browseName,
            String javaName, String where) {
        boolean writable = annotation.access() == UaAccess.READ_WRITE;
        MethodHandle getter = getter(member, instance, where);
        MethodHandle setter = null;
        UaValueConverter converter;
        if (member instanceof Field field) {
            converter = converter(field.getGenericType(), annotation.dataType(), where);
            if (writable) {
                if (Modifier.isFinal(field.getModifiers())) {
                    throw new OpcUaAnnotationException(where + ": access READ_WRITE needs a field that is not "
                            + "final; remove final or use access = READ");
                }
                setter = handle(() -> LOOKUP.unreflectSetter(field), where).bindTo(instance).asType(SETTER);
            }
        } else {
            Method method = (Method) member;
            converter = converter(method.getGenericReturnType(), annotation.dataType(), where);
            if (writable) {
                Method setterMethod = findSetter(method.getDeclaringClass(), javaName, method.getReturnType());
                if (setterMethod == null) {
                    throw new OpcUaAnnotationException(where + ": access READ_WRITE needs a setter "
                            + setterName(javaName) + "(" + method.getReturnType().getSimpleName()
                            + "); add it or use access = READ");
                }
                accessible(setterMethod, where);
                setter = handle(() -> LOOKUP.unreflect(setterMethod), where).bindTo(instance).asType(SETTER);
            }
        }
        if (!(annotation.minimumSamplingInterval() >= 0)) {
            throw new OpcUaAnnotationException(where + ": minimumSamplingInterval " + annotation.minimumSamplingInterval()
                    + " is not allowed; it is 0 or more milliseconds");
        }
        UaLimitAlarm alarm = ((AccessibleObject) member).getAnnotation(UaLimitAlarm.class);
        UaLimitAlarmModel limitAlarm = null;
        if (alarm != null) {
            if (!NUMERIC.contains(converter.builtinType()) || converter.valueRank() != -1) {
                throw new OpcUaAnnotationException(where + ": @UaLimitAlarm needs a numeric scalar variable, not "
                        + converter.builtinType() + (converter.valueRank() == -1 ? "" : " array"));
            }
            limitAlarm = UaLimitAlarmModel.of(alarm, browseName, where);
        }
        UaOffNormalAlarm offNormal = ((AccessibleObject) member).getAnnotation(UaOffNormalAlarm.class);
        UaOffNormalAlarmModel offNormalAlarm = null;
        if (offNormal != null) {
            if (alarm != null) {
                throw new OpcUaAnnotationException(where + ": carries both @UaLimitAlarm and @UaOffNormalAlarm; "
                        + "a variable drives one alarm");
            }
            Class<?> javaType = member instanceof Field field ? field.getType() : ((Method) member).getReturnType();
            offNormalAlarm = UaOffNormalAlarmModel.of(offNormal, browseName, javaType, converter, where);
        }
        String published = text(annotation.published(), null);
        String publishedField = null;
        if (published == null) {
            if (!annotation.publishedField().isEmpty()) {
                throw new OpcUaAnnotationException(where + ": publishedField '" + annotation.publishedField()
                        + "' without published; name the data set in published as well");
            }
        } else {
            if (published.isBlank() || !published.equals(published.strip())) {
                throw new OpcUaAnnotationException(where + ": published '" + published + "' is not a data set name;"
                        + " it is the name of a data set under opcua.pubsub.data-sets, such as Line");
            }
            if (converter.recordType() != null) {
                throw new OpcUaAnnotationException(where + ": published '" + published + "' on a record variable;"
                        + " a structured value cannot be published yet, publish its components' variables instead");
            }
            publishedField = text(annotation.publishedField(), browseName);
            if (publishedField.isBlank()) {
                throw new OpcUaAnnotationException(where + ": publishedField '" + publishedField
                        + "' is not a field name; leave it empty for the variable's name");
            }
        }
        return new UaVariableModel(browseName, text(annotation.displayName(), browseName),
                text(annotation.description(), null), javaName, where, converter, annotation.minimumSamplingInterval(),
                annotation.signalsChanges(), getter, setter, roles(annotation.readRoles(), where + " readRoles"),
                roles(annotation.writeRoles(), where + " writeRoles"), limitAlarm, offNormalAlarm,
                annotation.historizing(), published, publishedField);
    }

    /**
     * The converter of a variable's Java type: a record becomes a structured DataType of its own
     * (checked here, so that a component the stack cannot map names the bean and the member).
     */
    private static UaValueConverter converter(java.lang.reflect.Type type, BuiltinType dataType, String where) {
        if (type instanceof Class<?> c && c.isRecord()) {
            if (dataType != BuiltinType.Null) {
                throw new OpcUaAnnotationException(where + ": dataType " + dataType + " does not fit the record "
                        + c.getName() + "; a record is a structured DataType defined from its components");
            }
            try {
                RecordDataTypeManager.builder("urn:check").record(c.asSubclass(Record.class));
            } catch (IllegalArgumentException e) {
                throw new OpcUaAnnotationException(where + ": " + e.getMessage());
            }
            return UaValueConverter.record(c);
        }
        return UaTypeMapping.resolve(type, dataType, where);
    }

    private UaMethodModel method(UaMethod annotation, Method method, Object instance, String browseName,
            String where) {
        List<UaArgumentModel> inputs = new ArrayList<>();
        Parameter[] parameters = method.getParameters();
        int callerSlot = -1;
        for (int slot = 0; slot < parameters.length; slot++) {
            Parameter parameter = parameters[slot];
            if (parameter.getType() == Identity.class) {
                if (callerSlot >= 0) {
                    throw new OpcUaAnnotationException(where + ": has more than one Identity parameter; one "
                            + "receives the calling user");
                }
                if (parameter.getAnnotation(UaArgument.class) != null) {
                    throw new OpcUaAnnotationException(where + " parameter " + parameter.getName() + ": an Identity "
                            + "parameter receives the calling user and is no input argument; remove @UaArgument");
                }
                callerSlot = slot;
                continue;
            }
            UaArgument argument = parameter.getAnnotation(UaArgument.class);
            String name = argument != null && !argument.name().isEmpty() ? argument.name() : parameter.getName();
            UaValueConverter converter = UaTypeMapping.resolve(parameter.getParameterizedType(), BuiltinType.Null,
                    where + " parameter " + name);
            inputs.add(new UaArgumentModel(name, argument == null ? null : text(argument.description(), null),
                    converter));
        }
        List<UaArgumentModel> outputs = new ArrayList<>();
        List<MethodHandle> readers = null;
        Class<?> result = method.getReturnType();
        if (result.isRecord()) {
            readers = new ArrayList<>();
            for (RecordComponent component : result.getRecordComponents()) {
                String componentWhere = where + " result component " + component.getName();
                outputs.add(new UaArgumentModel(component.getName(), null,
                        UaTypeMapping.resolve(component.getGenericType(), BuiltinType.Null, componentWhere)));
                Method accessor = component.getAccessor();
                accessible(accessor, componentWhere);
                readers.add(handle(() -> LOOKUP.unreflect(accessor), componentWhere).asType(READER));
            }
        } else if (result != void.class) {
            outputs.add(new UaArgumentModel("result", null,
                    UaTypeMapping.resolve(method.getGenericReturnType(), BuiltinType.Null, where + " result")));
        }
        int n = parameters.length;
        MethodHandle invoker = handle(() -> LOOKUP.unreflect(method), where).bindTo(instance)
                .asType(MethodType.genericMethodType(n)).asSpreader(Object[].class, n);
        return new UaMethodModel(browseName, text(annotation.displayName(), browseName),
                text(annotation.description(), null), where, List.copyOf(inputs), List.copyOf(outputs), invoker,
                readers == null ? null : List.copyOf(readers), callerSlot,
                roles(annotation.callRoles(), where + " callRoles"));
    }

    /** The ObjectType of {@link UaObject#type()}, null when empty. */
    private static ExpandedNodeId type(String text, String where) {
        if (text.isBlank()) {
            return null;
        }
        try {
            return ExpandedNodeId.parse(text.trim());
        } catch (IllegalArgumentException e) {
            throw new OpcUaAnnotationException(where + ": @UaObject type '" + text + "' is no ExpandedNodeId ("
                    + e.getMessage() + "); write e.g. nsu=http://opcfoundation.org/UA/Machinery/;i=1012");
        }
    }

    /** Well-known role names of an annotation attribute. */
    private static List<WellKnownRole> roles(String[] names, String where) {
        List<WellKnownRole> roles = new ArrayList<>(names.length);
        for (String name : names) {
            try {
                roles.add(WellKnownRole.parse(name));
            } catch (IllegalArgumentException e) {
                throw new OpcUaAnnotationException(where + ": " + e.getMessage());
            }
        }
        return List.copyOf(roles);
    }

    /** A handle of type {@code ()Object} bound to the instance that reads the field or calls the getter. */
    private static MethodHandle getter(Member member, Object instance, String where) {
        if (member instanceof Field field) {
            return handle(() -> LOOKUP.unreflectGetter(field), where).bindTo(instance).asType(GETTER);
        }
        Method method = (Method) member;
        if (method.getParameterCount() != 0 || method.getReturnType() == void.class) {
            throw new OpcUaAnnotationException(where + ": is not a getter; a @UaVariable or @UaObject method takes "
                    + "no parameters and returns the value");
        }
        return handle(() -> LOOKUP.unreflect(method), where).bindTo(instance).asType(GETTER);
    }

    private static Object read(MethodHandle getter, String where) {
        try {
            return (Object) getter.invokeExact();
        } catch (Throwable e) {
            throw new OpcUaAnnotationException(where + ": reading the @UaObject member failed: " + e);
        }
    }

    /** getX / isX (boolean) give x (XY stays XY, as in JavaBeans); any other name is the property's. */
    static String capitalized(String javaName) {
        return javaName.isEmpty() ? javaName : Character.toUpperCase(javaName.charAt(0)) + javaName.substring(1);
    }

    static String propertyName(Method method) {
        String name = method.getName();
        String rest = null;
        if (name.startsWith("get") && name.length() > 3 && Character.isUpperCase(name.charAt(3))) {
            rest = name.substring(3);
        } else if (name.startsWith("is") && name.length() > 2 && Character.isUpperCase(name.charAt(2))
                && (method.getReturnType() == boolean.class || method.getReturnType() == Boolean.class)) {
            rest = name.substring(2);
        }
        if (rest == null) {
            return name;
        }
        if (rest.length() > 1 && Character.isUpperCase(rest.charAt(1))) {
            return rest;
        }
        return Character.toLowerCase(rest.charAt(0)) + rest.substring(1);
    }

    private static String setterName(String property) {
        return "set" + Character.toUpperCase(property.charAt(0)) + property.substring(1);
    }

    private static Method findSetter(Class<?> type, String property, Class<?> valueType) {
        String name = setterName(property);
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            try {
                Method setter = c.getDeclaredMethod(name, valueType);
                if (!Modifier.isStatic(setter.getModifiers())) {
                    return setter;
                }
            } catch (NoSuchMethodException e) {
                // look in the superclass
            }
        }
        return null;
    }

    private static void checkName(String name, String where) {
        if (name.isBlank() || name.indexOf('.') >= 0) {
            throw new OpcUaAnnotationException(where + ": name '" + name + "' is not allowed; a name is not blank "
                    + "and has no '.' (dots separate the names in NodeIds)");
        }
    }

    private static void accessible(AccessibleObject member, String where) {
        if (!member.trySetAccessible() && !(member instanceof Member m && Modifier.isPublic(m.getModifiers())
                && Modifier.isPublic(m.getDeclaringClass().getModifiers()))) {
            throw new OpcUaAnnotationException(where + ": cannot be accessed; make it public or open its package "
                    + "to the OPC UA starter");
        }
    }

    /** Superclasses first, so that the nodes of inherited members come first. */
    private static List<Class<?>> hierarchy(Class<?> type) {
        Deque<Class<?>> classes = new ArrayDeque<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            classes.addFirst(c);
        }
        return List.copyOf(classes);
    }

    private static String text(String value, String fallback) {
        return value == null || value.isEmpty() ? fallback : value;
    }

    @FunctionalInterface
    private interface HandleLookup {
        MethodHandle find() throws IllegalAccessException;
    }

    private static MethodHandle handle(HandleLookup lookup, String where) {
        try {
            return lookup.find();
        } catch (IllegalAccessException e) {
            throw new OpcUaAnnotationException(where + ": cannot be accessed (" + e.getMessage()
                    + "); make it public or open its package to the OPC UA starter");
        }
    }
}
