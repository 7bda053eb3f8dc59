package dev.opcua.spring.boot.server.annotation;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A Java record as a structured {@link UaVariable}, without a server: a record the stack cannot map is
 * refused when the node manager is made. {@link UaRecordVariableMiloIT} has a client read and write them.
 */
class UaRecordVariableTest {

    private static final String NS = "urn:test:annotations:records";

    record WithThread(Thread thread) {
    }

    @OpcUaNamespace(NS)
    static final class Broken {
        @UaVariable
        volatile WithThread value = new WithThread(null);
    }

    @Test
    void a_record_component_the_stack_cannot_map_is_refused_naming_bean_member_and_component() {
        assertThatThrownBy(() -> OpcUaAnnotatedNodeManagers.of(Map.of("broken", new Broken())))
                .isInstanceOf(OpcUaAnnotationException.class)
                .hasMessageContaining("bean 'broken'").hasMessageContaining("member value")
                .hasMessageContaining("component thread").hasMessageContaining("java.lang.Thread");
    }
}
