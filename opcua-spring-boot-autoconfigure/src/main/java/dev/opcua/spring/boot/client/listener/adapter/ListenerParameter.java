package dev.opcua.spring.boot.client.listener.adapter;

import dev.opcua.spring.boot.client.listener.OpcUaListenerEndpoint;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.List;
import org.springframework.core.MethodParameter;

/**
 * One parameter of a listener method, as the {@link OpcUaArgumentResolver}s see it at start-up.
 *
 * @param parameter the parameter (index, type, generic type, annotations)
 * @param kind whether the method receives data changes or events
 * @param valueIndex how many parameters before this one take a value: for a data change the next
 *        value parameter is the value itself (only one may), for an event the field of this index
 * @param fields the fields the event listener selects, in order; empty for data changes
 */
public record ListenerParameter(MethodParameter parameter, OpcUaListenerEndpoint.Kind kind, int valueIndex,
        List<String> fields) {

    public Method method() {
        return parameter.getMethod();
    }

    public Class<?> type() {
        return parameter.getParameterType();
    }

    public Type genericType() {
        return parameter.getGenericParameterType();
    }

    /** 0-based. */
    public int index() {
        return parameter.getParameterIndex();
    }

    public boolean isEvent() {
        return kind == OpcUaListenerEndpoint.Kind.EVENT;
    }

    /** "parameter 2 'speed' (double)", 1-based, with the name when compiled with -parameters. */
    public String describe() {
        java.lang.reflect.Parameter p = parameter.getMethod().getParameters()[index()];
        return "parameter " + (index() + 1) + (p.isNamePresent() ? " '" + p.getName() + "'" : "") + " ("
                + parameter.getGenericParameterType().getTypeName() + ")";
    }
}
