package dev.opcua.stack.server.nodeset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.models.StandardModels;
import org.junit.jupiter.api.Test;

/** The generated DI and Machinery models import without their files, RequiredModel check included. */
class GeneratedModelsTest {

    @Test
    void the_generated_models_import_without_the_files_and_keep_the_required_model_check() {
        StandaloneImports server = new StandaloneImports();
        assertThatThrownBy(() -> server.load(StandardModels.machinery()))
                .isInstanceOf(RequiredModelException.class)
                .hasMessageContaining("model:machinery (generated from Opc.Ua.Machinery.NodeSet2.xml): model "
                        + NodeSetFixtures.MACHINERY + " requires model " + NodeSetFixtures.DI);
        ImportedModel di = server.load(StandardModels.di());
        ImportedModel machinery = server.load(StandardModels.byName("model:Machinery"));
        assertThat(di.models()).extracting(ImportedModel.ModelVersion::uri).containsExactly(NodeSetFixtures.DI);
        assertThat(machinery.models().get(0).version()).isEqualTo("1.03.0");
        assertThat(di.store().size()).isGreaterThan(400);
        assertThat(di.layouts()).isNotEmpty();
        // MachineIdentificationType (Machinery i=1012) and its Manufacturer property, in the server's namespaces
        int ns = server.namespaces.indexOf(NodeSetFixtures.MACHINERY);
        UaNode type = machinery.store().get(NodeId.numeric(ns, 1012));
        assertThat(type.browseName()).isEqualTo(QualifiedName.of(ns, "MachineIdentificationType"));
        assertThat(type.references()).anyMatch(r -> !r.forward()
                && r.referenceTypeId().equals(NodeId.ns0(45)));
        assertThatThrownBy(() -> StandardModels.byName("packml")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no built-in model 'packml'; the built-in models are [model:di, model:machinery]");
        assertThat(StandardModels.isKnown(" model:DI")).isTrue();
        assertThat(StandardModels.isKnown("machinery")).isTrue();
        assertThat(StandardModels.isKnown("model:packml")).isFalse();
    }
}
