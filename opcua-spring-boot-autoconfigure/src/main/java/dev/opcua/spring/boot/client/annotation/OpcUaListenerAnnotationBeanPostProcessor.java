package dev.opcua.spring.boot.client.annotation;

import dev.opcua.spring.boot.client.listener.OpcUaListenerEndpoint;
import dev.opcua.spring.boot.client.listener.OpcUaListenerEndpointRegistry;
import dev.opcua.spring.boot.client.listener.OpcUaListenerMethodException;
import dev.opcua.spring.boot.client.listener.adapter.OpcUaArgumentResolver;
import dev.opcua.spring.boot.client.listener.adapter.OpcUaListenerMethodAdapter;
import dev.opcua.spring.boot.client.listener.filter.EventFields;
import dev.opcua.spring.boot.client.listener.filter.WhereClauseParser;
import dev.opcua.spring.boot.client.listener.filter.WhereClauseSyntaxException;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.DeadbandType;
import dev.opcua.stack.core.types.structured.ContentFilter;
import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;

/**
 * Finds the {@link OpcUaSubscription} and {@link OpcUaEventSubscription} methods of every bean (on
 * the target class, so behind AOP proxies too), turns each into an {@link OpcUaListenerEndpoint}
 * whose invoker is the method ({@link OpcUaListenerMethodAdapter}), and registers the endpoints with
 * the {@link OpcUaListenerEndpointRegistry} once all singletons exist: the path of Spring for Apache
 * Kafka's {@code KafkaListenerAnnotationBeanPostProcessor}.
 *
 * <p>Everything that can be checked without a server is checked here, at start-up, with an
 * {@link OpcUaListenerMethodException} naming the bean, the method and the parameter or attribute:
 * parameters no resolver can feed, node id syntax, attribute names, durations, queue sizes,
 * deadbands, event fields and the where clause's syntax (with the position). The connection's
 * existence is checked when the endpoint is registered.
 *
 * <p>Argument resolvers: the {@link OpcUaArgumentResolver} beans of the context, in their order, ahead
 * of {@link OpcUaListenerMethodAdapter#defaultResolvers()}.
 */
public class OpcUaListenerAnnotationBeanPostProcessor
        implements BeanPostProcessor, BeanFactoryAware, SmartInitializingSingleton, Ordered {

    private static final Map<String, Long> ATTRIBUTES = attributeIds();
    private static final String ATTRIBUTE_NAMES = Arrays.stream(AttributeIds.class.getFields())
            .filter(f -> Modifier.isStatic(f.getModifiers())).map(Field::getName).collect(Collectors.joining(", "));

    private final Set<Class<?>> nonAnnotatedClasses = Collections.newSetFromMap(new ConcurrentHashMap<>());
    private final Set<String> ids = ConcurrentHashMap.newKeySet();
    private final List<OpcUaListenerEndpoint> pending = new ArrayList<>();
    private BeanFactory beanFactory;
    private volatile List<OpcUaArgumentResolver> resolvers;
    private OpcUaListenerEndpointRegistry registry;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE; // after the AOP proxy creator: the bean here may be a proxy
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
        Class<?> targetClass = AopUtils.getTargetClass(bean);
        if (nonAnnotatedClasses.contains(targetClass)
                || !AnnotationUtils.isCandidateClass(targetClass, List.of(OpcUaSubscription.class,
                        OpcUaSubscriptions.class, OpcUaEventSubscription.class, OpcUaEventSubscriptions.class))) {
            return bean;
        }
        Map<Method, List<Annotation>> annotated = MethodIntrospector.selectMethods(targetClass,
                (MethodIntrospector.MetadataLookup<List<Annotation>>) method -> {
                    List<Annotation> found = new ArrayList<>();
                    found.addAll(AnnotatedElementUtils.getMergedRepeatableAnnotations(method,
                            OpcUaSubscription.class, OpcUaSubscriptions.class));
                    found.addAll(AnnotatedElementUtils.getMergedRepeatableAnnotations(method,
                            OpcUaEventSubscription.class, OpcUaEventSubscriptions.class));
                    return found.isEmpty() ? null : found;
                });
        if (annotated.isEmpty()) {
            nonAnnotatedClasses.add(targetClass);
            return bean;
        }
        List<OpcUaListenerEndpoint> endpoints = new ArrayList<>();
        annotated.forEach((method, annotations) -> {
            for (Annotation annotation : annotations) {
                endpoints.add(annotation instanceof OpcUaSubscription s ? dataChange(bean, beanName, method, s)
                        : event(bean, beanName, method, (OpcUaEventSubscription) annotation));
            }
        });
        OpcUaListenerEndpointRegistry target;
        synchronized (pending) {
            target = registry;
            if (target == null) {
                pending.addAll(endpoints);
            }
        }
        if (target != null) { // a bean created after start-up (lazy, prototype)
            endpoints.forEach(target::register);
        }
        return bean;
    }

    @Override
    public void afterSingletonsInstantiated() {
        List<OpcUaListenerEndpoint> endpoints;
        synchronized (pending) {
            endpoints = List.copyOf(pending);
            pending.clear();
            if (beanFactory instanceof ListableBeanFactory listable
                    && listable.getBeanNamesForType(OpcUaListenerEndpointRegistry.class).length == 0) {
                if (!endpoints.isEmpty()) {
                    throw new OpcUaListenerMethodException("there are OPC UA listener methods (" + endpoints.get(0)
                            .id() + " ...) but no OpcUaListenerEndpointRegistry bean: configure an OPC UA client "
                            + "connection under opcua.client.connections.<name>, or declare the registry");
                }
                return;
            }
            registry = beanFactory.getBean(OpcUaListenerEndpointRegistry.class);
        }
        endpoints.forEach(registry::register);
    }

    // ---- endpoints --------------------------------------------------------------------------------

    private OpcUaListenerEndpoint dataChange(Object bean, String beanName, Method method, OpcUaSubscription a) {
        String where = describe(beanName, method) + " (@OpcUaSubscription)";
        String node = checkNode(resolve(a.node()), "node", where);
        OpcUaListenerMethodAdapter adapter = adapter(bean, beanName, method, where, OpcUaListenerEndpoint.Kind.DATA_CHANGE,
                List.of());
        Long attributeId = ATTRIBUTES.get(resolve(a.attribute()).toLowerCase(Locale.ROOT));
        if (attributeId == null) {
            throw new OpcUaListenerMethodException(where + ": attribute '" + a.attribute() + "' is not an attribute "
                    + "name of Part 3, 5.9; allowed: " + ATTRIBUTE_NAMES);
        }
        if (a.queueSize() < -1) {
            throw new OpcUaListenerMethodException(where + ": queueSize must be >= 0, or -1 for the connection's "
                    + "default, not " + a.queueSize());
        }
        if (a.deadband() < 0 || Double.isNaN(a.deadband()) || a.deadbandType() == OpcUaSubscription.DeadbandType.PERCENT
                && a.deadband() > 100) {
            throw new OpcUaListenerMethodException(where + ": deadband must be >= 0 (and <= 100 for PERCENT), not "
                    + a.deadband());
        }
        DeadbandType deadband = switch (a.deadbandType()) {
            case NONE -> DeadbandType.None;
            case ABSOLUTE -> DeadbandType.Absolute;
            case PERCENT -> DeadbandType.Percent;
        };
        return OpcUaListenerEndpoint.dataChange(id(beanName, method), node, adapter)
                .connection(resolve(a.connection()))
                .attributeId(attributeId)
                .samplingInterval(duration(a.samplingInterval(), "samplingInterval", where, true))
                .queue(a.queueSize(), a.discardOldest())
                .deadband(deadband, a.deadband())
                .publishingInterval(duration(a.publishingInterval(), "publishingInterval", where, false))
                .durable(duration(a.durable(), "durable", where, false))
                .build();
    }

    private OpcUaListenerEndpoint event(Object bean, String beanName, Method method, OpcUaEventSubscription a) {
        String where = describe(beanName, method) + " (@OpcUaEventSubscription)";
        String notifier = checkNode(resolve(a.notifier()), "notifier", where);
        List<String> fields = Arrays.stream(a.fields()).map(this::resolve).map(String::strip).toList();
        if (fields.isEmpty()) {
            throw new OpcUaListenerMethodException(where + ": fields is empty; select at least one field");
        }
        for (String field : fields) {
            try {
                EventFields.operand(field);
            } catch (IllegalArgumentException e) {
                throw new OpcUaListenerMethodException(where + ": fields: " + e.getMessage(), e);
            }
        }
        String whereText = resolve(a.where());
        ContentFilter filter;
        try {
            filter = WhereClauseParser.parse(whereText);
        } catch (WhereClauseSyntaxException e) {
            throw new OpcUaListenerMethodException(where + ": the where clause has a syntax error: "
                    + e.getMessage(), e);
        }
        if (a.queueSize() < -1) {
            throw new OpcUaListenerMethodException(where + ": queueSize must be >= 0, or -1 for 1000, not "
                    + a.queueSize());
        }
        OpcUaListenerMethodAdapter adapter = adapter(bean, beanName, method, where, OpcUaListenerEndpoint.Kind.EVENT,
                fields);
        return OpcUaListenerEndpoint.event(id(beanName, method), notifier, fields, adapter)
                .connection(resolve(a.connection()))
                .where(filter, whereText)
                .queue(a.queueSize(), true)
                .publishingInterval(duration(a.publishingInterval(), "publishingInterval", where, false))
                .build();
    }

    private OpcUaListenerMethodAdapter adapter(Object bean, String beanName, Method method, String where,
            OpcUaListenerEndpoint.Kind kind, List<String> fields) {
        Method invocable;
        try {
            invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
        } catch (IllegalStateException e) {
            throw new OpcUaListenerMethodException(where + ": the method cannot be called on the bean's proxy ("
                    + e.getMessage() + "); declare it on an interface the proxy implements, or proxy the class", e);
        }
        if (Modifier.isStatic(method.getModifiers())) {
            throw new OpcUaListenerMethodException(where + ": a listener method must not be static");
        }
        return OpcUaListenerMethodAdapter.create(bean, invocable, where, kind, fields, resolvers());
    }

    private List<OpcUaArgumentResolver> resolvers() {
        List<OpcUaArgumentResolver> chain = resolvers;
        if (chain == null) {
            chain = new ArrayList<>();
            if (beanFactory != null) {
                beanFactory.getBeanProvider(OpcUaArgumentResolver.class).orderedStream().forEach(chain::add);
            }
            chain.addAll(OpcUaListenerMethodAdapter.defaultResolvers());
            resolvers = chain = List.copyOf(chain);
        }
        return chain;
    }

    /** {@code <bean>.<method>}, then {@code #2}, {@code #3} ... for repeated annotations and overloads. */
    private String id(String beanName, Method method) {
        String base = beanName + "." + method.getName();
        String id = base;
        for (int n = 2; !ids.add(id); n++) {
            id = base + "#" + n;
        }
        return id;
    }

    private static String describe(String beanName, Method method) {
        return "bean '" + beanName + "' method '" + method.getName() + "(" + Arrays.stream(method.getParameterTypes())
                .map(Class::getSimpleName).collect(Collectors.joining(", ")) + ")'";
    }

    private String resolve(String value) {
        if (value != null && beanFactory instanceof ConfigurableBeanFactory configurable) {
            String resolved = configurable.resolveEmbeddedValue(value);
            return resolved == null ? "" : resolved;
        }
        return value == null ? "" : value;
    }

    private static String checkNode(String text, String attribute, String where) {
        try {
            if (text.startsWith("nsu=") || text.startsWith("svr=")) {
                ExpandedNodeId.parse(text);
            } else {
                NodeId.parse(text);
            }
        } catch (RuntimeException e) {
            throw new OpcUaListenerMethodException(where + ": " + attribute + " '" + text + "' is not a node id ("
                    + e.getMessage() + "); write nsu=<namespace URI>;s=<id>, ns=<index>;i=<id> or i=<id>", e);
        }
        return text;
    }

    private Duration duration(String text, String attribute, String where, boolean zeroAllowed) {
        String value = resolve(text).strip();
        if (value.isEmpty()) {
            return null;
        }
        Duration duration;
        try {
            duration = DurationStyle.detectAndParse(value);
        } catch (IllegalArgumentException e) {
            throw new OpcUaListenerMethodException(where + ": " + attribute + " '" + value + "' is not a duration; "
                    + "write for example 500ms, 1s or 2m", e);
        }
        if (duration.isNegative() || !zeroAllowed && duration.isZero()) {
            throw new OpcUaListenerMethodException(where + ": " + attribute + " '" + value + "' must be "
                    + (zeroAllowed ? "zero or more" : "more than zero"));
        }
        return duration;
    }

    private static Map<String, Long> attributeIds() {
        Map<String, Long> ids = new java.util.HashMap<>();
        for (Field field : AttributeIds.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && (field.getType() == int.class || field.getType() == long.class)) {
                try {
                    ids.put(field.getName().toLowerCase(Locale.ROOT), ((Number) field.get(null)).longValue());
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return Map.copyOf(ids);
    }
}
