package dev.opcua.spring.boot.autoconfigure.client.annotation;

import dev.opcua.stack.core.ids.AttributeIds;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * What the annotated client listeners use reflectively besides the listener methods themselves (those
 * get their hints from {@code @OpcUaSubscription} and {@code @OpcUaEventSubscription}): the attribute
 * names of {@code @OpcUaSubscription(attribute = ...)} are read from the constants of {@link AttributeIds}.
 */
class OpcUaListenerRuntimeHints implements RuntimeHintsRegistrar {

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        hints.reflection().registerType(AttributeIds.class, MemberCategory.ACCESS_PUBLIC_FIELDS);
    }
}
