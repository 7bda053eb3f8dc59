package dev.opcua.spring.boot.autoconfigure.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.TypeHint;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

/** What the server's runtime hints name: the namespace-0 resource and the virtual-thread API. */
class OpcUaServerRuntimeHintsTest {

    private final RuntimeHints hints = new RuntimeHints();

    OpcUaServerRuntimeHintsTest() {
        new OpcUaServerRuntimeHints().registerHints(hints, getClass().getClassLoader());
    }

    @Test
    void namespace0_resource_is_included_and_is_where_the_loader_reads_it() {
        assertThat(RuntimeHintsPredicates.resource().forResource(OpcUaServerRuntimeHints.NAMESPACE0_RESOURCE))
                .accepts(hints);
        assertThat(getClass().getClassLoader().getResource(OpcUaServerRuntimeHints.NAMESPACE0_RESOURCE)).isNotNull();
    }

    @Test
    void virtual_thread_methods_the_request_pool_looks_up_are_registered_by_name() {
        assertThat(methodNames(TypeReference.of(Thread.class))).contains("ofVirtual", "isVirtual");
        assertThat(methodNames(TypeReference.of("java.lang.Thread$Builder"))).contains("name", "factory");
    }

    private Iterable<String> methodNames(TypeReference type) {
        TypeHint hint = hints.reflection().getTypeHint(type);
        assertThat(hint).as("hint for %s", type).isNotNull();
        return hint.methods().map(method -> method.getName()).toList();
    }
}
