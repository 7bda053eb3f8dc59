package dev.opcua.spring.boot.server.annotation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link OpcUaNamespace#nonBlocking()}: a namespace whose beans all promise not to block gets a
 * non-blocking node manager; one bean that does not promise it keeps the namespace on workers.
 * {@link OpcUaNamespaceNonBlockingMiloIT} shows where a client's Reads and Writes then run.
 */
class OpcUaNamespaceNonBlockingTest {

    private static final String NS = "urn:test:annotations:nonblocking";

    @OpcUaNamespace(value = NS, name = "Tank", nonBlocking = true)
    static final class Tank {
        @UaVariable
        volatile double level = 3.5;
    }

    @OpcUaNamespace(value = NS, name = "Pump")
    static final class Pump {
        @UaVariable
        volatile double flow = 1.0;
    }

    @Test
    void a_namespace_is_non_blocking_only_when_every_bean_promises_it() {
        assertThat(OpcUaAnnotatedNodeManager.of(NS, Map.of("tank", new Tank())).isNonBlocking()).isTrue();
        assertThat(OpcUaAnnotatedNodeManager.of(NS, Map.of("pump", new Pump())).isNonBlocking()).isFalse();
        Map<String, Object> both = new LinkedHashMap<>();
        both.put("tank", new Tank());
        both.put("pump", new Pump());
        assertThat(OpcUaAnnotatedNodeManager.of(NS, both).isNonBlocking()).isFalse();
    }
}
