package dev.opcua.spring.boot.client.listener.adapter;

import dev.opcua.spring.boot.client.listener.ListenerNotification;
import dev.opcua.spring.boot.client.listener.OpcUaListenerEndpoint;
import dev.opcua.spring.boot.client.listener.OpcUaListenerInvoker;
import dev.opcua.spring.boot.client.listener.OpcUaListenerMethodException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Objects;
import org.springframework.core.MethodParameter;
import org.springframework.util.ReflectionUtils;

/**
 * A bean method as an {@link OpcUaListenerInvoker}: each parameter is fed by the first
 * {@link OpcUaArgumentResolver} of the chain that can, decided once at start-up, so that a method no
 * notification can call fails start-up instead of every delivery. A data-change method takes at most
 * one value parameter; an event method at most one per selected field.
 */
public final class OpcUaListenerMethodAdapter implements OpcUaListenerInvoker {

    private final Object bean;
    private final Method method;
    private final OpcUaArgumentResolver.ArgumentSource[] sources;

    private OpcUaListenerMethodAdapter(Object bean, Method method, OpcUaArgumentResolver.ArgumentSource[] sources) {
        this.bean = bean;
        this.method = method;
        this.sources = sources;
    }

    /** The resolvers every chain ends with: the notification as it came, then the converted value. */
    public static List<OpcUaArgumentResolver> defaultResolvers() {
        return List.of(new NotificationArgumentResolver(), new ValueArgumentResolver());
    }

    /**
     * @param bean the object to call the method on (a proxy is fine when {@code method} is invocable on it)
     * @param method the method to call
     * @param description "bean 'x' method 'onSpeed(double)'", to start error messages with
     * @param kind data changes or events
     * @param fields the selected event fields, in order; empty for data changes
     * @param resolvers the chain, in order
     * @throws OpcUaListenerMethodException naming the method and parameter no resolver can feed, or
     *         a value parameter too many
     */
    public static OpcUaListenerMethodAdapter create(Object bean, Method method, String description,
            OpcUaListenerEndpoint.Kind kind, List<String> fields, List<OpcUaArgumentResolver> resolvers) {
        Objects.requireNonNull(bean, "bean");
        OpcUaArgumentResolver.ArgumentSource[] sources =
                new OpcUaArgumentResolver.ArgumentSource[method.getParameterCount()];
        int values = 0;
        for (int i = 0; i < sources.length; i++) {
            ListenerParameter parameter = new ListenerParameter(new MethodParameter(method, i), kind, values,
                    List.copyOf(fields));
            OpcUaArgumentResolver.ArgumentSource source = null;
            for (OpcUaArgumentResolver resolver : resolvers) {
                source = resolver.resolverFor(parameter);
                if (source != null) {
                    break;
                }
            }
            if (source == null) {
                throw new OpcUaListenerMethodException(description + ": " + parameter.describe()
                        + " cannot be fed from " + (kind == OpcUaListenerEndpoint.Kind.EVENT ? "an event" : "a data "
                        + "change") + ". Allowed: " + allowed(kind));
            }
            if (source.takesValue()) {
                if (kind == OpcUaListenerEndpoint.Kind.DATA_CHANGE && values > 0) {
                    throw new OpcUaListenerMethodException(description + ": " + parameter.describe()
                            + " would be a second value; a data-change listener takes one value parameter, besides "
                            + "DataValue, Variant, StatusCode and ClientMonitoredItem");
                }
                if (kind == OpcUaListenerEndpoint.Kind.EVENT && values >= fields.size()) {
                    throw new OpcUaListenerMethodException(description + ": " + parameter.describe()
                            + " has no field: the listener selects " + fields.size() + " fields " + fields
                            + "; add one to 'fields' or remove the parameter");
                }
                values++;
            }
            sources[i] = source;
        }
        ReflectionUtils.makeAccessible(method);
        return new OpcUaListenerMethodAdapter(bean, method, sources);
    }

    private static String allowed(OpcUaListenerEndpoint.Kind kind) {
        return kind == OpcUaListenerEndpoint.Kind.EVENT
                ? "one parameter per selected field, each " + ValueConverters.supportedTypes()
                        + "; Variant[] or List<Variant> for all fields; ClientMonitoredItem"
                : "the value as " + ValueConverters.supportedTypes()
                        + "; DataValue, Variant, StatusCode, ClientMonitoredItem";
    }

    public Method method() {
        return method;
    }

    @Override
    public void invoke(ListenerNotification notification) throws Exception {
        Object[] args = new Object[sources.length];
        for (int i = 0; i < args.length; i++) {
            args[i] = sources[i].argument(notification);
        }
        try {
            method.invoke(bean, args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception ex) {
                throw ex;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    @Override
    public String toString() {
        return "OpcUaListenerMethodAdapter[" + method.toGenericString() + "]";
    }
}
