package dev.opcua.spring.boot.client.listener.adapter;

import dev.opcua.spring.boot.client.listener.ListenerNotification;
import dev.opcua.stack.client.subscriptions.ClientMonitoredItem;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.List;

/**
 * Feeds parameters with the notification as it came: for data changes the {@link DataValue} (Part 4,
 * 7.20.2, with status and timestamps), its {@link Variant} and its {@link StatusCode}; for events
 * every selected field as {@code Variant[]} or {@code List<Variant>}; for both the
 * {@link ClientMonitoredItem}. None of these takes a value: they may stand beside the converted value,
 * in any order.
 */
public final class NotificationArgumentResolver implements OpcUaArgumentResolver {

    @Override
    public ArgumentSource resolverFor(ListenerParameter parameter) {
        Class<?> type = parameter.type();
        if (type == ClientMonitoredItem.class) {
            return ListenerNotification::item;
        }
        if (parameter.isEvent()) {
            if (type == Variant[].class) {
                return n -> ((ListenerNotification.Event) n).fields().clone();
            }
            if (type == List.class && isListOfVariants(parameter.genericType())) {
                return n -> List.copyOf(Arrays.asList(nonNull(((ListenerNotification.Event) n).fields())));
            }
            return null;
        }
        if (type == DataValue.class) {
            return n -> ((ListenerNotification.DataChange) n).value();
        }
        if (type == Variant.class) {
            return n -> {
                Variant v = ((ListenerNotification.DataChange) n).value().value();
                return v == null ? Variant.NULL : v;
            };
        }
        if (type == StatusCode.class) {
            return n -> ((ListenerNotification.DataChange) n).value().statusCode();
        }
        return null;
    }

    private static Variant[] nonNull(Variant[] fields) {
        Variant[] copy = fields.clone();
        for (int i = 0; i < copy.length; i++) {
            if (copy[i] == null) {
                copy[i] = Variant.NULL;
            }
        }
        return copy;
    }

    private static boolean isListOfVariants(Type type) {
        if (!(type instanceof ParameterizedType p)) {
            return true; // a raw List: of Variants all the same
        }
        Type element = p.getActualTypeArguments()[0];
        return element == Variant.class || element instanceof java.lang.reflect.WildcardType w
                && w.getUpperBounds().length == 1 && w.getUpperBounds()[0] == Object.class;
    }
}
