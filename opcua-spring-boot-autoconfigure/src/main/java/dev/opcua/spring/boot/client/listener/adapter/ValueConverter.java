package dev.opcua.spring.boot.client.listener.adapter;

import dev.opcua.spring.boot.client.listener.OpcUaListenerArgumentException;
import dev.opcua.stack.core.types.builtin.Variant;

/** Turns a Variant into the value of one Java type; see {@link ValueConverters}. Stateless. */
@FunctionalInterface
public interface ValueConverter {

    /**
     * @throws OpcUaListenerArgumentException when the value does not fit (another type, out of
     *         range, null for a primitive)
     */
    Object convert(Variant value);
}
