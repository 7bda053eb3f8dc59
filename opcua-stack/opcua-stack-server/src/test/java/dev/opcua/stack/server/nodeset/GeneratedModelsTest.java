package dev.opcua.stack.server.nodeset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.models.StandardModels;
import dev.opcua.stack.server.namespace0.Namespace0Loader;
import dev.opcua.stack.server.nodes.NamespaceTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The generated DI and Machinery models import as their NodeSet2 files do. */
class GeneratedModelsTest {

    private static NodeStore ns0;

    @BeforeAll
    static void loadNamespace0() {
        ns0 = Namespace0Loader.load();
    }

    /** One server's imports: namespace table, registry and the stores. */
    private static final class Server {
        final NamespaceTable namespaces = new NamespaceTable("urn:test:generated-models");
        final ModelRegistry registry = new ModelRegistry(ns0);
        final List<ImportedModel> models = new ArrayList<>();

        ImportedModel load(NodeSetSource source) {
            ImportedModel model = NodeSetImporter.importNodeSet(source, namespaces, this::find, registry);
            models.add(model);
            return model;
        }

        UaNode find(NodeId id) {
            if (id.namespaceIndex() == 0) {
                return ns0.get(id);
            }
            for (ImportedModel model : models) {
                UaNode node = model.store().get(id);
                if (node != null) {
                    return node;
                }
            }
            return null;
        }
    }

    @Test
    void the_generated_models_import_without_the_files_and_keep_the_required_model_check() {
        Server server = new Server();
        assertThatThrownBy(() -> server.load(StandardModels.machinery()))
                .isInstanceOf(RequiredModelException.class)
                .hasMessageContaining("model:machinery (generated from Opc.Ua.Machinery.NodeSet2.xml): model "
                        + CompanionFiles.MACHINERY + " requires model " + CompanionFiles.DI);
        ImportedModel di = server.load(StandardModels.di());
        ImportedModel machinery = server.load(StandardModels.byName("model:Machinery"));
        assertThat(di.models()).extracting(ImportedModel.ModelVersion::uri).containsExactly(CompanionFiles.DI);
        assertThat(machinery.models().get(0).version()).isEqualTo("1.03.0");
        assertThat(di.store().size()).isGreaterThan(400);
        assertThat(di.layouts()).isNotEmpty();
        // MachineIdentificationType (Machinery i=1012) and its Manufacturer property, in the server's namespaces
        int ns = server.namespaces.indexOf(CompanionFiles.MACHINERY);
        UaNode type = machinery.store().get(NodeId.numeric(ns, 1012));
        assertThat(type.browseName()).isEqualTo(QualifiedName.of(ns, "MachineIdentificationType"));
        assertThat(type.references()).anyMatch(r -> !r.forward()
                && r.referenceTypeId().equals(NodeId.ns0(45)));
        assertThatThrownBy(() -> StandardModels.byName("packml")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no built-in model 'packml'; the built-in models are [model:di, model:machinery]");
    }

    @Test
    void the_generated_import_equals_the_xml_import_node_by_node() {
        Server fromXml = new Server();
        fromXml.load(NodeSetSource.of(CompanionFiles.di()));
        fromXml.load(NodeSetSource.of(CompanionFiles.machinery()));
        Server generated = new Server();
        generated.load(StandardModels.di());
        generated.load(StandardModels.machinery());

        assertThat(generated.namespaces.toArray()).isEqualTo(fromXml.namespaces.toArray());
        assertThat(generated.registry.models()).isEqualTo(fromXml.registry.models());
        assertThat(generated.registry.layouts()).hasSameSizeAs(fromXml.registry.layouts());
        int compared = 0;
        for (int m = 0; m < 2; m++) {
            NodeStore expected = fromXml.models.get(m).store();
            NodeStore actual = generated.models.get(m).store();
            assertThat(actual.size()).isEqualTo(expected.size());
            for (UaNode node : expected.nodes()) {
                UaNode twin = actual.get(node.nodeId());
                assertThat(twin).as("node %s", node.nodeId()).isNotNull();
                assertThat(twin.nodeClass()).isEqualTo(node.nodeClass());
                for (int attribute = AttributeIds.NodeId; attribute <= AttributeIds.AccessLevelEx; attribute++) {
                    if (attribute == AttributeIds.Value || attribute == AttributeIds.DataTypeDefinition) {
                        continue;
                    }
                    assertThat(twin.attribute(attribute)).as("node %s attribute %s", node.nodeId(), attribute)
                            .isEqualTo(node.attribute(attribute));
                }
                assertThat(String.valueOf(twin.attribute(AttributeIds.DataTypeDefinition)))
                        .isEqualTo(String.valueOf(node.attribute(AttributeIds.DataTypeDefinition)));
                if (node instanceof VariableNode variable) {
                    Variant value = variable.value().value();
                    assertThat(String.valueOf(((VariableNode) twin).value().value())).as("value of %s", node.nodeId())
                            .isEqualTo(String.valueOf(value));
                }
                assertThat(sorted(twin.references())).as("references of %s", node.nodeId())
                        .isEqualTo(sorted(node.references()));
                compared++;
            }
        }
        assertThat(compared).isGreaterThan(550);
        // a few by hand: Machinery's MachineIdentificationType and DI's DeviceType
        int machineryNs = generated.namespaces.indexOf(CompanionFiles.MACHINERY);
        UaNode identification = generated.find(NodeId.numeric(machineryNs, 1012));
        assertThat(identification.displayName()).isEqualTo(LocalizedText.of("MachineIdentificationType"));
        assertThat(identification.attribute(AttributeIds.IsAbstract)).isEqualTo(Variant.ofBoolean(false));
    }

    private static List<String> sorted(UaReference[] references) {
        return Arrays.stream(references).map(String::valueOf).sorted().toList();
    }
}
