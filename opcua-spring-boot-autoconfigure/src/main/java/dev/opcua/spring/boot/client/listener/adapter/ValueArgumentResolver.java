package dev.opcua.spring.boot.client.listener.adapter;

import dev.opcua.spring.boot.client.listener.ListenerNotification;
import dev.opcua.spring.boot.client.listener.OpcUaListenerArgumentException;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.Variant;

/**
 * Feeds a parameter with the value converted to its declared type ({@link ValueConverters}): for a
 * data change the DataValue's value, for an event the selected field of the parameter's position
 * among the value parameters (a {@link Variant} parameter of an event takes its field as it is).
 */
public final class ValueArgumentResolver implements OpcUaArgumentResolver {

    @Override
    public ArgumentSource resolverFor(ListenerParameter parameter) {
        ValueConverter converter = ValueConverters.forType(parameter.type());
        if (converter == null) {
            return null;
        }
        if (parameter.isEvent()) {
            int field = parameter.valueIndex();
            String name = field < parameter.fields().size() ? parameter.fields().get(field) : null;
            return new Value(n -> {
                Variant[] fields = ((ListenerNotification.Event) n).fields();
                if (field >= fields.length) {
                    throw new OpcUaListenerArgumentException("the event has " + fields.length
                            + " fields, the field " + name + " is missing");
                }
                return fields[field];
            }, converter, name == null ? "the value" : "the field " + name);
        }
        return new Value(n -> {
            DataValue value = ((ListenerNotification.DataChange) n).value();
            return value.value();
        }, converter, "the value");
    }

    private interface Extractor {
        Variant variant(ListenerNotification notification);
    }

    private record Value(Extractor extractor, ValueConverter converter, String what) implements ArgumentSource {

        @Override
        public Object argument(ListenerNotification notification) {
            try {
                return converter.convert(extractor.variant(notification));
            } catch (OpcUaListenerArgumentException e) {
                throw new OpcUaListenerArgumentException(what + ": " + e.getMessage());
            }
        }

        @Override
        public boolean takesValue() {
            return true;
        }
    }
}
