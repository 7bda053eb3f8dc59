package dev.opcua.spring.boot.autoconfigure.client.annotation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.client.annotation.OpcUaEventSubscription;
import dev.opcua.spring.boot.client.annotation.OpcUaSubscription;
import dev.opcua.stack.core.ids.AttributeIds;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.annotation.ReflectiveRuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

/** The reflection the annotated client listeners need: attribute names, and the listener methods. */
class OpcUaListenerRuntimeHintsTest {

    static class Listeners {
        @OpcUaSubscription(node = "ns=2;s=Speed")
        void onSpeed(double speed) {
        }

        @OpcUaSubscription(node = "ns=2;s=A")
        @OpcUaSubscription(node = "ns=2;s=B")
        void onEither(double value) {
        }

        @OpcUaEventSubscription(notifier = "i=2253", fields = "Severity")
        void onEvent(int severity) {
        }

        void notAListener() {
        }
    }

    @Test
    void attribute_names_are_read_from_the_constants_of_attribute_ids() {
        RuntimeHints hints = new RuntimeHints();
        new OpcUaListenerRuntimeHints().registerHints(hints, getClass().getClassLoader());

        assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(AttributeIds.class, "Value")).accepts(hints);
    }

    @Test
    void annotated_listener_methods_are_registered_for_invocation_through_their_annotations() {
        RuntimeHints hints = new RuntimeHints();
        new ReflectiveRuntimeHintsRegistrar().registerRuntimeHints(hints, Listeners.class);

        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Listeners.class, "onSpeed")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Listeners.class, "onEither")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Listeners.class, "onEvent")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Listeners.class, "notAListener"))
                .rejects(hints);
    }
}
