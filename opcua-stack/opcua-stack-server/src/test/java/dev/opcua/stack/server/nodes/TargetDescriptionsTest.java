package dev.opcua.stack.server.nodes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.namespace0.Namespace0Loader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Browse targets described directly from the node store give what the generic way through the
 * manager's own Read and browse gives, and both say what the nodes are.
 */
class TargetDescriptionsTest {

    private static final String NS = "urn:test:describe";

    private final NodeStore ns0 = Namespace0Loader.load();
    private final InMemoryNodeManager manager = InMemoryNodeManager.builder(NS)
            .folder("Line", f -> f.displayName("Line 1"))
            .object("Line.Motor", o -> { })
            .variable("Line.Motor.Speed", BuiltinType.Double, v -> v.value(Variant.ofDouble(1.5)))
            .method("Line.Motor.Stop", null, null, (context, in) -> new Variant[0])
            .build();
    private final NodeManagers managers = start();

    private NodeManagers start() {
        NodeManagers all = new NodeManagers(new NamespaceTable("urn:test:server"));
        all.register(new NodeStoreNodeManager(List.of(NamespaceTable.OPC_UA_NAMESPACE), ns0));
        all.register(manager);
        all.startup();
        all.linkReverseReferences();
        return all;
    }

    private List<NodeId> targets() {
        return List.of(manager.nodeId("Line"), manager.nodeId("Line.Motor"), manager.nodeId("Line.Motor.Speed"),
                manager.nodeId("Line.Motor.Stop"), NodeId.string(manager.namespaceIndex(), "Line.Nothing"));
    }

    private static List<DescribeOperation> operations(List<NodeId> targets, boolean typeDefinitions) {
        List<DescribeOperation> operations = new ArrayList<>();
        targets.forEach(t -> operations.add(new DescribeOperation(t, typeDefinitions)));
        return operations;
    }

    private static List<String> described(List<DescribeOperation> operations) {
        return operations.stream().map(o -> o.nodeClass() + " " + o.browseName() + " " + o.displayName() + " "
                + o.typeDefinition()).toList();
    }

    @Test
    void the_store_describes_its_nodes_as_a_read_and_a_browse_of_them_would() {
        for (boolean typeDefinitions : new boolean[] {true, false}) {
            List<DescribeOperation> direct = operations(targets(), typeDefinitions);
            List<DescribeOperation> generic = operations(targets(), typeDefinitions);
            assertThat(manager.describe(OperationContext.INTERNAL, direct)).isDone();
            TargetDescriptions.describe(manager, OperationContext.INTERNAL, generic).join();
            assertThat(described(direct)).as("type definitions %s", typeDefinitions)
                    .containsExactlyElementsOf(described(generic));
        }
    }

    @Test
    void names_classes_and_the_type_definitions_of_objects_and_variables_only_when_asked() {
        List<DescribeOperation> wanted = operations(targets(), true);
        manager.describe(OperationContext.INTERNAL, wanted).join();
        DescribeOperation line = wanted.get(0);
        assertThat(line.nodeClass()).isEqualTo(NodeClass.Object);
        assertThat(line.browseName()).isEqualTo(QualifiedName.of(manager.namespaceIndex(), "Line"));
        assertThat(line.displayName()).isEqualTo(LocalizedText.of("Line 1"));
        assertThat(line.typeDefinition()).isEqualTo(ExpandedNodeId.of(NodeId.ns0(NodeIds.FolderType)));
        assertThat(wanted.get(2).nodeClass()).isEqualTo(NodeClass.Variable);
        assertThat(wanted.get(2).typeDefinition()).isEqualTo(ExpandedNodeId.of(NodeId.ns0(NodeIds.BaseDataVariableType)));
        assertThat(wanted.get(3).nodeClass()).as("a method has no type definition").isEqualTo(NodeClass.Method);
        assertThat(wanted.get(3).typeDefinition()).isNull();
        DescribeOperation unknown = wanted.get(4);
        assertThat(unknown.nodeClass()).isEqualTo(NodeClass.Unspecified);
        assertThat(unknown.browseName()).isEqualTo(QualifiedName.NULL);
        assertThat(unknown.displayName()).isEqualTo(LocalizedText.NULL);
        assertThat(unknown.typeDefinition()).isNull();

        List<DescribeOperation> unwanted = operations(targets(), false);
        manager.describe(OperationContext.INTERNAL, unwanted).join();
        assertThat(unwanted).extracting(DescribeOperation::typeDefinition).containsOnlyNulls();
        assertThat(unwanted.get(0).browseName()).isEqualTo(line.browseName());
    }

    @Test
    void targets_are_routed_to_their_managers_and_an_unknown_namespace_stays_undescribed() {
        DescribeOperation objects = new DescribeOperation(NodeId.ns0(NodeIds.ObjectsFolder), true);
        DescribeOperation speed = new DescribeOperation(manager.nodeId("Line.Motor.Speed"), false);
        DescribeOperation elsewhere = new DescribeOperation(NodeId.numeric(7, 1), true);
        managers.describe(OperationContext.INTERNAL, new DescribeOperation[] {objects, speed, elsewhere}).join();
        assertThat(objects.browseName()).isEqualTo(QualifiedName.of(0, "Objects"));
        assertThat(objects.typeDefinition()).isEqualTo(ExpandedNodeId.of(NodeId.ns0(NodeIds.FolderType)));
        assertThat(speed.browseName().name()).isEqualTo("Speed");
        assertThat(elsewhere.nodeClass()).isEqualTo(NodeClass.Unspecified);
    }
}
