package dev.opcua.spring.boot.autoconfigure.validation;

import jakarta.validation.Constraint;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedArrayType;
import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.temporal.TemporalAmount;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.springframework.context.support.DefaultMessageSourceResolvable;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.Errors;

/**
 * Checks an {@code opcua.*} properties object against the Bean Validation constraint annotations on its
 * fields, without a Bean Validation provider: the annotations stay the declaration (and the IDE's
 * documentation), this class is their execution. A provider such as Hibernate Validator loads hundreds of
 * classes and builds its metadata at every start, which an application's memory and start-up time would pay only
 * to check these properties (docs/OPERATIONS.md, "Start-up and footprint").
 * <p>
 * Supported, exactly what the properties classes use: {@link NotNull}, {@link NotBlank}, {@link NotEmpty},
 * {@link Size}, {@link Min}, {@link Max}, {@link Positive}, {@link PositiveOrZero}, {@link Pattern},
 * {@link DataSizeRange}, {@link PositiveDuration} and {@link Valid} (a nested group, each element of a
 * {@code List}, each value of a {@code Map}), on a field or on the element type of a {@code List} or the
 * value type of a {@code Map} ({@code List<@NotBlank String>}, {@code Map<String, @Valid Connection>}).
 * Any other constraint, one on a method, a class, a map key or another container, or one with groups,
 * fails with an {@link IllegalStateException} naming the field and the annotation the first time its class
 * is checked, whatever the values: a constraint added later cannot be silently ignored.
 * <p>
 * Each broken constraint is rejected into the {@link Errors} as Spring's {@code SpringValidatorAdapter}
 * reported Hibernate Validator's violations: the field path ({@code requests.maxThreads},
 * {@code hostnames[0]}, {@code connections[plant].endpointUrl}), the annotation's simple name as the error
 * code, the field and the annotation's attributes as arguments, and the message of Hibernate Validator's
 * English {@code ValidationMessages} with {@code {attribute}} parameters replaced (messages are English
 * whatever the default locale).
 */
public final class PropertyConstraints {

    /** The default messages of the standard constraints, as Hibernate Validator's ValidationMessages.properties. */
    private static final Map<String, String> STANDARD_MESSAGES = Map.of(
            "jakarta.validation.constraints.NotNull.message", "must not be null",
            "jakarta.validation.constraints.NotBlank.message", "must not be blank",
            "jakarta.validation.constraints.NotEmpty.message", "must not be empty",
            "jakarta.validation.constraints.Size.message", "size must be between {min} and {max}",
            "jakarta.validation.constraints.Min.message", "must be greater than or equal to {value}",
            "jakarta.validation.constraints.Max.message", "must be less than or equal to {value}",
            "jakarta.validation.constraints.Positive.message", "must be greater than 0",
            "jakarta.validation.constraints.PositiveOrZero.message", "must be greater than or equal to 0",
            "jakarta.validation.constraints.Pattern.message", "must match \"{regexp}\"");

    /** The attributes every constraint has that are not parameters of its message. */
    private static final Set<String> NOT_PARAMETERS = Set.of("message", "groups", "payload");

    private static final Set<Class<?>> INTEGRAL = Set.of(byte.class, short.class, int.class, long.class,
            Byte.class, Short.class, Integer.class, Long.class, BigInteger.class, BigDecimal.class);

    /** The fields to check of each class (its superclasses' first), built once per class. */
    private static final ClassValue<List<Rule>> RULES = new ClassValue<>() {
        @Override
        protected List<Rule> computeValue(Class<?> type) {
            return rules(type);
        }
    };

    private PropertyConstraints() {
    }

    /**
     * Rejects into {@code errors} each constraint that {@code target} or a nested {@link Valid} object breaks.
     *
     * @throws IllegalStateException when a class met holds a constraint this checker does not support
     */
    public static void check(Object target, Errors errors) {
        checkBean(target, "", errors, Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    private static void checkBean(Object bean, String path, Errors errors, Set<Object> onPath) {
        if (!onPath.add(bean)) {
            return; // a cycle: the object is already being checked further up this path
        }
        for (Rule rule : RULES.get(bean.getClass())) {
            Object value = ReflectionUtils.getField(rule.field(), bean);
            rule.node().check(value, path + rule.field().getName(), errors, onPath);
        }
        onPath.remove(bean);
    }

    /** A constrained field. */
    private record Rule(Field field, Node node) {
    }

    /**
     * What a value must satisfy: its constraints, then, for a List or a Map, what each element or value must
     * satisfy, or else whether it is a nested group to check ({@link Valid}).
     */
    private record Node(List<Check> checks, Container container, boolean cascade, Node elements) {

        void check(Object value, String path, Errors errors, Set<Object> onPath) {
            for (Check check : checks) {
                if (!check.test().test(value)) {
                    errors.rejectValue(path, check.code(), check.arguments(errors.getObjectName(), path),
                            check.message());
                }
            }
            if (value == null) {
                return;
            }
            if (cascade) {
                checkBean(value, path + ".", errors, onPath);
            } else if (elements != null && container == Container.LIST) {
                int index = 0;
                for (Object element : (List<?>) value) {
                    elements.check(element, path + "[" + index++ + "]", errors, onPath);
                }
            } else if (elements != null) {
                for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
                    elements.check(entry.getValue(), path + "[" + entry.getKey() + "]", errors, onPath);
                }
            }
        }
    }

    private enum Container { NONE, LIST, MAP }

    /** One constraint: its error code, message, message arguments and test of a value. */
    private record Check(String code, String message, Object[] attributes, Predicate<Object> test) {

        /** As SpringValidatorAdapter: the field as a resolvable, then the attributes by name. */
        Object[] arguments(String objectName, String field) {
            Object[] arguments = new Object[attributes.length + 1];
            arguments[0] = new DefaultMessageSourceResolvable(new String[] { objectName + "." + field, field },
                    field);
            System.arraycopy(attributes, 0, arguments, 1, attributes.length);
            return arguments;
        }
    }

    private static List<Rule> rules(Class<?> type) {
        List<Rule> rules = new ArrayList<>();
        if (type.getSuperclass() != null) {
            rules.addAll(RULES.get(type.getSuperclass()));
        }
        for (Annotation annotation : type.getDeclaredAnnotations()) {
            refuseConstraint(annotation, type.getName());
        }
        for (Method method : type.getDeclaredMethods()) {
            for (Annotation annotation : method.getDeclaredAnnotations()) {
                refuseConstraint(annotation, type.getName() + "." + method.getName() + "()");
            }
        }
        for (Field field : type.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers())) {
                continue;
            }
            String where = type.getName() + "." + field.getName();
            Set<Annotation> annotations = new LinkedHashSet<>(Arrays.asList(field.getDeclaredAnnotations()));
            // a constraint that targets both FIELD and TYPE_USE is reported on both: the set keeps it once
            annotations.addAll(Arrays.asList(field.getAnnotatedType().getDeclaredAnnotations()));
            Node node = node(field.getAnnotatedType(), annotations, where);
            if (node != null) {
                ReflectionUtils.makeAccessible(field);
                rules.add(new Rule(field, node));
            }
        }
        return List.copyOf(rules);
    }

    /** The node of a value of {@code type} carrying {@code annotations}; null when nothing is to be checked. */
    private static Node node(AnnotatedType type, Collection<Annotation> annotations, String where) {
        Class<?> raw = raw(type.getType());
        List<Check> checks = new ArrayList<>();
        boolean cascade = false;
        for (Annotation annotation : annotations) {
            if (annotation instanceof Valid) {
                cascade = true;
            } else if (isConstraint(annotation.annotationType())) {
                checks.add(check(annotation, raw, where));
            }
        }
        Container container = List.class.isAssignableFrom(raw) ? Container.LIST
                : Map.class.isAssignableFrom(raw) ? Container.MAP : Container.NONE;
        Node elements = null;
        if (type instanceof AnnotatedParameterizedType parameterized) {
            AnnotatedType[] arguments = parameterized.getAnnotatedActualTypeArguments();
            for (int i = 0; i < arguments.length; i++) {
                AnnotatedType argument = arguments[i];
                boolean element = container == Container.LIST || (container == Container.MAP && i == 1);
                Node node = node(argument, Arrays.asList(argument.getDeclaredAnnotations()), where + "<"
                        + argument.getType().getTypeName() + ">");
                if (node != null && !element) {
                    throw unsupported(where, "a constraint on the type argument " + argument.getType().getTypeName()
                            + " (only List elements and Map values are checked)");
                }
                elements = element ? node : elements;
            }
        }
        if (type instanceof AnnotatedArrayType array
                && node(array.getAnnotatedGenericComponentType(), List.of(array.getAnnotatedGenericComponentType()
                        .getDeclaredAnnotations()), where) != null) {
            throw unsupported(where, "a constraint on the elements of an array");
        }
        if (cascade && container != Container.NONE) {
            // @Valid on a List or a Map cascades into each element or value, as Hibernate Validator does
            elements = elements == null ? new Node(List.of(), Container.NONE, true, null)
                    : new Node(elements.checks(), elements.container(), true, elements.elements());
            cascade = false;
        } else if (cascade && (Iterable.class.isAssignableFrom(raw) || raw.isArray())) {
            throw unsupported(where, "@Valid on a " + raw.getSimpleName() + " (only a List or a Map is cascaded)");
        }
        return checks.isEmpty() && !cascade && elements == null ? null
                : new Node(List.copyOf(checks), container, cascade, elements);
    }

    /** The check of one supported constraint on a value of {@code type}. */
    private static Check check(Annotation annotation, Class<?> type, String where) {
        Map<String, Object> attributes = attributes(annotation);
        Object groups = attributes.get("groups");
        if (groups instanceof Class<?>[] classes && classes.length > 0) {
            throw unsupported(where, "@" + annotation.annotationType().getSimpleName() + " with groups");
        }
        Predicate<Object> test = test(annotation, type, where);
        String message = interpolate(String.valueOf(attributes.get("message")), attributes, annotation, where);
        Object[] parameters = attributes.entrySet().stream().filter(e -> !NOT_PARAMETERS.contains(e.getKey()))
                .map(Map.Entry::getValue).toArray();
        return new Check(annotation.annotationType().getSimpleName(), message, parameters, test);
    }

    /** The test of a value that {@code annotation} makes, refusing a constraint on a type it cannot check. */
    private static Predicate<Object> test(Annotation annotation, Class<?> type, String where) {
        if (annotation instanceof NotNull) {
            return value -> value != null;
        }
        if (annotation instanceof NotBlank) {
            // Hibernate Validator's test: blank is what String.trim() removes entirely
            return requires(CharSequence.class.isAssignableFrom(type), annotation, type, where,
                    value -> value != null && !value.toString().trim().isEmpty());
        }
        if (annotation instanceof NotEmpty) {
            return requires(isSized(type), annotation, type, where, value -> value != null && size(value) > 0);
        }
        if (annotation instanceof Size size) {
            return requires(isSized(type), annotation, type, where,
                    value -> value == null || (size(value) >= size.min() && size(value) <= size.max()));
        }
        boolean integral = INTEGRAL.contains(type);
        if (annotation instanceof Min min) {
            return requires(integral, annotation, type, where,
                    value -> value == null || compare(value, min.value()) >= 0);
        }
        if (annotation instanceof Max max) {
            return requires(integral, annotation, type, where,
                    value -> value == null || compare(value, max.value()) <= 0);
        }
        if (annotation instanceof Positive) {
            return requires(integral, annotation, type, where, value -> value == null || compare(value, 0) > 0);
        }
        if (annotation instanceof PositiveOrZero) {
            return requires(integral, annotation, type, where, value -> value == null || compare(value, 0) >= 0);
        }
        if (annotation instanceof Pattern pattern) {
            int flags = 0;
            for (Pattern.Flag flag : pattern.flags()) {
                flags |= flag.getValue();
            }
            java.util.regex.Pattern regex = java.util.regex.Pattern.compile(pattern.regexp(), flags);
            return requires(CharSequence.class.isAssignableFrom(type), annotation, type, where,
                    value -> value == null || regex.matcher((CharSequence) value).matches());
        }
        if (annotation instanceof DataSizeRange range) {
            return requires(DataSize.class.isAssignableFrom(type), annotation, type, where,
                    value -> DataSizeRange.Validator.isValid((DataSize) value, range.min(), range.max()));
        }
        if (annotation instanceof PositiveDuration duration) {
            return requires(TemporalAmount.class.isAssignableFrom(type), annotation, type, where,
                    value -> PositiveDuration.Validator.isValid((TemporalAmount) value, duration.orZero()));
        }
        throw unsupported(where, "@" + annotation.annotationType().getName());
    }

    private static Predicate<Object> requires(boolean supported, Annotation annotation, Class<?> type, String where,
            Predicate<Object> test) {
        if (!supported) {
            throw unsupported(where, "@" + annotation.annotationType().getSimpleName() + " on a " + type.getName());
        }
        return test;
    }

    private static boolean isSized(Class<?> type) {
        return CharSequence.class.isAssignableFrom(type) || Collection.class.isAssignableFrom(type)
                || Map.class.isAssignableFrom(type) || type.isArray();
    }

    private static int size(Object value) {
        if (value instanceof CharSequence text) {
            return text.length();
        }
        if (value instanceof Collection<?> collection) {
            return collection.size();
        }
        return value instanceof Map<?, ?> map ? map.size() : Array.getLength(value);
    }

    private static int compare(Object number, long bound) {
        BigDecimal value = number instanceof BigDecimal decimal ? decimal
                : number instanceof BigInteger integer ? new BigDecimal(integer)
                : BigDecimal.valueOf(((Number) number).longValue());
        return value.compareTo(BigDecimal.valueOf(bound));
    }

    /**
     * The message template with its {@code {attribute}} parameters and the standard messages' keys replaced
     * and {@code \} escapes resolved; an unknown key or an {@code ${expression}} cannot be interpolated
     * without Hibernate Validator, and fails.
     */
    private static String interpolate(String template, Map<String, Object> attributes, Annotation annotation,
            String where) {
        StringBuilder message = new StringBuilder(template.length());
        for (int i = 0; i < template.length(); i++) {
            char c = template.charAt(i);
            int end = c == '{' ? template.indexOf('}', i) : -1;
            if (c == '\\' && i + 1 < template.length()) {
                message.append(template.charAt(++i));
            } else if (c == '$' && i + 1 < template.length() && template.charAt(i + 1) == '{') {
                throw unsupported(where, "@" + annotation.annotationType().getSimpleName()
                        + " with an expression in its message: " + template);
            } else if (end > i) {
                String name = template.substring(i + 1, end);
                if (attributes.containsKey(name) && !NOT_PARAMETERS.contains(name)) {
                    Object value = attributes.get(name);
                    message.append(value instanceof Object[] array ? Arrays.toString(array) : String.valueOf(value));
                } else if (STANDARD_MESSAGES.containsKey(name)) {
                    message.append(interpolate(STANDARD_MESSAGES.get(name), attributes, annotation, where));
                } else {
                    throw unsupported(where, "@" + annotation.annotationType().getSimpleName()
                            + " with the unknown message parameter {" + name + "}");
                }
                i = end;
            } else {
                message.append(c);
            }
        }
        return message.toString();
    }

    /** The annotation's attributes by name. */
    private static Map<String, Object> attributes(Annotation annotation) {
        Map<String, Object> attributes = new TreeMap<>();
        for (Method method : annotation.annotationType().getDeclaredMethods()) {
            if (method.getParameterCount() == 0 && !Modifier.isStatic(method.getModifiers())) {
                ReflectionUtils.makeAccessible(method);
                attributes.put(method.getName(), ReflectionUtils.invokeMethod(method, annotation));
            }
        }
        return attributes;
    }

    /** A constraint annotation, or the container of repeated ones ({@code @Min.List}). */
    private static boolean isConstraint(Class<? extends Annotation> type) {
        if (type.isAnnotationPresent(Constraint.class)) {
            return true;
        }
        try {
            Class<?> value = type.getMethod("value").getReturnType();
            return value.isArray() && value.getComponentType().isAnnotationPresent(Constraint.class);
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static void refuseConstraint(Annotation annotation, String where) {
        if (annotation instanceof Valid || isConstraint(annotation.annotationType())) {
            throw unsupported(where, "@" + annotation.annotationType().getSimpleName()
                    + " on a class or a method (only fields are checked)");
        }
    }

    private static Class<?> raw(Type type) {
        return type instanceof Class<?> c ? c
                : type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : Object.class;
    }

    private static IllegalStateException unsupported(String where, String what) {
        return new IllegalStateException(where + ": " + what + " is not supported by " + PropertyConstraints.class
                .getSimpleName() + "; extend it or use a supported constraint");
    }
}
