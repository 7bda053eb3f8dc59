package dev.opcua.stack.server.nodeset;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.models.StandardModels;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The generated DI and Machinery models import as the standard's NodeSet2 files they were generated
 * from, node by node: the code generator lost nothing. Needs the originals ({@link SchemaFiles}).
 */
class GeneratedModelsSchemaIT {

    @Test
    void the_generated_import_equals_the_import_of_the_standard_files_node_by_node() {
        StandaloneImports fromXml = new StandaloneImports();
        fromXml.load(NodeSetSource.of(SchemaFiles.di()));
        fromXml.load(NodeSetSource.of(SchemaFiles.machinery()));
        StandaloneImports generated = new StandaloneImports();
        generated.load(StandardModels.di());
        generated.load(StandardModels.machinery());

        assertThat(generated.namespaces.toArray()).isEqualTo(fromXml.namespaces.toArray());
        assertThat(generated.registry.models()).isEqualTo(fromXml.registry.models());
        assertThat(generated.registry.layouts()).hasSameSizeAs(fromXml.registry.layouts());
        int compared = 0;
        for (int m = 0; m < 2; m++) {
            Map<String, String> expected = NamespaceSnapshot.of(fromXml.namespaces,
                    fromXml.models.get(m).store().nodes());
            Map<String, String> actual = NamespaceSnapshot.of(generated.namespaces,
                    generated.models.get(m).store().nodes());
            assertThat(NamespaceSnapshot.differences(expected, actual)).isEmpty();
            compared += expected.size();
        }
        assertThat(compared).isGreaterThan(550);
        // a few by hand: Machinery's MachineIdentificationType
        int machineryNs = generated.namespaces.indexOf(NodeSetFixtures.MACHINERY);
        UaNode identification = generated.find(NodeId.numeric(machineryNs, 1012));
        assertThat(identification.displayName()).isEqualTo(LocalizedText.of("MachineIdentificationType"));
        assertThat(identification.attribute(AttributeIds.IsAbstract)).isEqualTo(Variant.ofBoolean(false));
    }
}
