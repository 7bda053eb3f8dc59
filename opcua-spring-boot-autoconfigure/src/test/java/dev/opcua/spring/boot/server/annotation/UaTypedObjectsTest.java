package dev.opcua.spring.boot.server.annotation;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.server.nodes.NamespaceTable;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What stops the start before a typed object is instantiated (Part 3, 6.4): a type the server cannot know. */
class UaTypedObjectsTest {

    private static final String NS = "urn:test:annotations:typed-objects";

    static final class Nameplate {
        @UaVariable
        volatile String serialNumber = "F-1000";
    }

    @OpcUaNamespace(value = NS, name = "Filler")
    static final class Filler {
        @UaObject(type = "nsu=urn:test:missing-model;i=1012")
        final Nameplate nameplate = new Nameplate();
    }

    @Test
    void a_type_in_a_namespace_the_server_lacks_names_the_object_and_how_to_load_the_model() {
        OpcUaAnnotatedNodeManager manager = OpcUaAnnotatedNodeManager.of(NS, Map.of("filler", new Filler()));
        NamespaceTable namespaces = new NamespaceTable("urn:test:server");
        namespaces.register(NS);
        manager.startup(namespaces);
        // the type is resolved before the instantiator is asked for anything
        assertThatThrownBy(() -> manager.instantiateTypes(null))
                .isInstanceOf(OpcUaAnnotationException.class)
                .hasMessageContaining("urn:test:missing-model")
                .hasMessageContaining("nameplate")
                .hasMessageContaining("opcua.server.nodesets");
    }
}
