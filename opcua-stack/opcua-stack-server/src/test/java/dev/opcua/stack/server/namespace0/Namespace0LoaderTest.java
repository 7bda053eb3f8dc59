package dev.opcua.stack.server.namespace0;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import dev.opcua.stack.core.types.structured.Argument;
import dev.opcua.stack.core.types.structured.EnumValueType;
import dev.opcua.stack.server.addressspace.DataTypeNode;
import dev.opcua.stack.server.addressspace.MethodNode;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.ReferenceTypeNode;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.VariableNode;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Namespace 0 as loaded from the committed resource (generated from Opc.Ua.NodeSet2.xml, v1.05.03). */
class Namespace0LoaderTest {

    /** Nodes in Opc.Ua.NodeSet2.xml; opcua-stack-codegen's NodeSetReaderTest counts the same from the XML. */
    static final int NODESET_NODES = 4956;

    private static NodeStore store;
    private static long startupMicros;
    private static long firstLoadMicros;

    @BeforeAll
    static void load() {
        long start = System.nanoTime();
        // What a server initialises before it loads namespace 0 anyway: the codecs and Netty's buffers.
        CodecRegistry.standard();
        Unpooled.buffer(1).release();
        long loadStart = System.nanoTime();
        store = Namespace0Loader.load();
        firstLoadMicros = (System.nanoTime() - loadStart) / 1000;
        startupMicros = (loadStart - start) / 1000;
    }

    @Test
    void the_store_holds_every_node_of_the_standard_nodeset_by_class() {
        Map<NodeClass, Integer> counts = new EnumMap<>(NodeClass.class);
        for (UaNode node : store.nodes()) {
            counts.merge(node.nodeClass(), 1, Integer::sum);
        }

        assertThat(store.size()).isEqualTo(NODESET_NODES);
        assertThat(counts).containsOnly(
                Map.entry(NodeClass.Object, 800), Map.entry(NodeClass.Variable, 3063),
                Map.entry(NodeClass.Method, 425), Map.entry(NodeClass.ObjectType, 263),
                Map.entry(NodeClass.VariableType, 62), Map.entry(NodeClass.ReferenceType, 72),
                Map.entry(NodeClass.DataType, 271));
    }

    @Test
    void root_organizes_objects_types_and_views() {
        UaNode root = node(NodeIds.RootFolder);

        assertThat(root.browseName().name()).isEqualTo("Root");
        assertThat(targets(root, NodeIds.Organizes, true))
                .contains(id(NodeIds.ObjectsFolder), id(NodeIds.TypesFolder), id(NodeIds.ViewsFolder));
    }

    @Test
    void the_server_object_hangs_below_objects_with_its_type_and_status() {
        UaNode server = node(NodeIds.Server);

        assertThat(targets(node(NodeIds.ObjectsFolder), NodeIds.Organizes, true)).contains(id(NodeIds.Server));
        assertThat(server.nodeClass()).isEqualTo(NodeClass.Object);
        assertThat(targets(server, NodeIds.HasTypeDefinition, true)).containsExactly(id(NodeIds.ServerType));
        assertThat(targets(server, NodeIds.HasComponent, true)).contains(id(NodeIds.Server_ServerStatus));
        assertThat(targets(server, NodeIds.Organizes, false)).containsExactly(id(NodeIds.ObjectsFolder));
    }

    @Test
    void server_state_is_a_scalar_variable_of_data_type_server_state() {
        VariableNode state = (VariableNode) node(NodeIds.Server_ServerStatus_State);

        assertThat(state.valueAttributes().dataType()).isEqualTo(id(NodeIds.ServerState));
        assertThat(state.valueAttributes().valueRank()).isEqualTo(-1);
        assertThat(state.valueAttributes().arrayDimensions()).isNull();
        assertThat(state.accessLevel()).isEqualTo((short) 1);
        assertThat(state.attribute(AttributeIds.DataType)).isEqualTo(Variant.of(id(NodeIds.ServerState)));
        assertThat(targets(state, NodeIds.HasComponent, false)).containsExactly(id(NodeIds.Server_ServerStatus));
    }

    @Test
    void hierarchical_references_is_an_abstract_reference_type_with_its_inverse_name() {
        ReferenceTypeNode hierarchical = (ReferenceTypeNode) node(NodeIds.HierarchicalReferences);

        assertThat(hierarchical.isAbstract()).isTrue();
        assertThat(hierarchical.symmetric()).isFalse();
        assertThat(hierarchical.inverseName()).isEqualTo(LocalizedText.of("InverseHierarchicalReferences"));
        assertThat(((ReferenceTypeNode) node(NodeIds.HasSubtype)).isAbstract()).isFalse();
        assertThat(((ReferenceTypeNode) node(NodeIds.HasSubtype)).inverseName()).isEqualTo(LocalizedText.of("SubtypeOf"));
    }

    @Test
    void has_subtype_derives_from_references_through_has_child_and_hierarchical_references() {
        List<NodeId> chain = new ArrayList<>();
        UaNode type = node(NodeIds.HasSubtype);
        while (type != null) {
            chain.add(type.nodeId());
            List<NodeId> supertypes = targets(type, NodeIds.HasSubtype, false);
            assertThat(supertypes).as("supertypes of %s", type).hasSizeLessThanOrEqualTo(1);
            type = supertypes.isEmpty() ? null : store.get(supertypes.get(0));
        }

        assertThat(chain).containsExactly(id(NodeIds.HasSubtype), id(NodeIds.HasChild),
                id(NodeIds.HierarchicalReferences), id(NodeIds.References));
    }

    @Test
    void double_is_a_concrete_data_type_below_number() {
        DataTypeNode doubleType = (DataTypeNode) node(NodeIds.Double);

        assertThat(doubleType.isAbstract()).isFalse();
        assertThat(doubleType.dataTypeDefinition()).isNull();
        assertThat(targets(doubleType, NodeIds.HasSubtype, false)).containsExactly(id(NodeIds.Number));
        assertThat(((DataTypeNode) node(NodeIds.Number)).isAbstract()).isTrue();
    }

    @Test
    void method_arguments_decode_to_argument_structures() {
        MethodNode method = (MethodNode) node(NodeIds.Server_GetMonitoredItems);
        VariableNode input = (VariableNode) node(NodeIds.Server_GetMonitoredItems_InputArguments);
        VariableNode output = (VariableNode) node(NodeIds.Server_GetMonitoredItems_OutputArguments);

        assertThat(method.executable()).isTrue();
        assertThat(targets(method, NodeIds.HasProperty, true)).contains(input.nodeId(), output.nodeId());
        assertThat(input.valueAttributes().dataType()).isEqualTo(id(NodeIds.Argument));
        Argument[] inputs = structures(input.value().value(), Argument.class);
        assertThat(inputs).extracting(Argument::name).containsExactly("SubscriptionId");
        assertThat(inputs[0].dataType()).isEqualTo(id(NodeIds.UInt32));
        assertThat(inputs[0].valueRank()).isEqualTo(-1);
        Argument[] outputs = structures(output.value().value(), Argument.class);
        assertThat(outputs).extracting(Argument::name).containsExactly("ServerHandles", "ClientHandles");
        assertThat(outputs[0].valueRank()).isEqualTo(1);
        assertThat(outputs[0].arrayDimensions()).containsExactly(0L);
    }

    @Test
    void enum_strings_and_enum_values_of_enumerations_decode() {
        Variant serverStates = ((VariableNode) node(NodeIds.ServerState_EnumStrings)).value().value();
        Variant nodeClasses = ((VariableNode) node(NodeIds.NodeClass_EnumValues)).value().value();

        assertThat(serverStates.type()).isEqualTo(BuiltinType.LocalizedText);
        assertThat((LocalizedText[]) serverStates.value()).extracting(LocalizedText::text)
                .startsWith("Running", "Failed", "NoConfiguration").hasSize(8);
        EnumValueType[] values = structures(nodeClasses, EnumValueType.class);
        assertThat(values).extracting(EnumValueType::value).containsExactly(0L, 1L, 2L, 4L, 8L, 16L, 32L, 64L, 128L);
        assertThat(values[1].displayName()).isEqualTo(LocalizedText.of("Object"));
    }

    @Test
    void scalar_values_keep_their_builtin_types() {
        Variant namespaceUri = ((VariableNode) node(NodeIds.OPCUANamespaceMetadata_NamespaceUri)).value().value();

        assertThat(namespaceUri).isEqualTo(Variant.ofString("http://opcfoundation.org/UA/"));
    }

    @Test
    void every_reference_target_is_a_node_of_the_store() {
        List<String> dangling = new ArrayList<>();
        for (UaNode node : store.nodes()) {
            for (UaReference reference : node.references()) {
                if (store.get(reference.targetId().nodeId()) == null || store.get(reference.referenceTypeId()) == null) {
                    dangling.add(node + " -> " + reference);
                }
            }
        }

        assertThat(dangling).isEmpty();
    }

    @Test
    void every_reference_is_held_once_by_each_of_its_ends() {
        List<String> problems = new ArrayList<>();
        int total = 0;
        for (UaNode node : store.nodes()) {
            UaReference[] references = node.references();
            total += references.length;
            if (new HashSet<>(Arrays.asList(references)).size() != references.length) {
                problems.add("duplicate reference on " + node);
            }
            for (UaReference reference : references) {
                UaNode target = store.get(reference.targetId().nodeId());
                if (!target.referenceList().contains(reference.reversed(node.nodeId()))) {
                    problems.add(target + " lacks the reverse of " + node + " -> " + reference);
                }
            }
        }

        assertThat(problems).isEmpty();
        // 11,859 distinct references in the nodeset, each held by both ends.
        assertThat(total).isEqualTo(2 * 11_859);
    }

    @Test
    void loading_takes_well_under_a_second() {
        NodeStore fresh = null;
        long bestMicros = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            long start = System.nanoTime();
            fresh = Namespace0Loader.load();
            bestMicros = Math.min(bestMicros, (System.nanoTime() - start) / 1000);
        }

        System.out.printf("Namespace0Loader: %d nodes from a %d-byte resource; first load in this JVM %.1f ms"
                + " (after %.1f ms of codec registry and Netty start-up), best of 5 more loads %.1f ms%n",
                fresh.size(), resourceSize(), firstLoadMicros / 1000.0, startupMicros / 1000.0, bestMicros / 1000.0);
        assertThat(fresh.size()).isEqualTo(NODESET_NODES);
        assertThat(bestMicros).isLessThan(1_000_000);
    }

    @Test
    void a_resource_of_another_format_version_is_refused_with_a_hint() throws IOException {
        byte[] file = resourceBytes();
        file[4] = 2;

        assertThatThrownBy(() -> Namespace0Loader.load(file))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("format version 2")
                .hasMessageContaining("regenerate");
    }

    @Test
    void a_corrupt_resource_is_refused() throws IOException {
        byte[] file = resourceBytes();
        byte[] truncated = Arrays.copyOf(file, file.length / 2);
        byte[] notOurs = "<xml/>and more bytes".getBytes(StandardCharsets.US_ASCII);

        assertThatThrownBy(() -> Namespace0Loader.load(truncated)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("body");
        assertThatThrownBy(() -> Namespace0Loader.load(notOurs)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("UANS");
    }

    private static byte[] resourceBytes() throws IOException {
        try (InputStream in = Namespace0Loader.class.getResourceAsStream(Namespace0Loader.RESOURCE)) {
            return in.readAllBytes();
        }
    }

    private static int resourceSize() {
        try {
            return resourceBytes().length;
        } catch (IOException e) {
            return -1;
        }
    }

    private static NodeId id(int numeric) {
        return NodeId.ns0(numeric);
    }

    private static UaNode node(int numeric) {
        UaNode node = store.get(id(numeric));
        assertThat(node).as("node i=%d", numeric).isNotNull();
        return node;
    }

    private static List<NodeId> targets(UaNode node, int referenceType, boolean forward) {
        List<NodeId> targets = new ArrayList<>();
        for (UaReference reference : node.references()) {
            if (reference.referenceTypeId().equals(id(referenceType)) && reference.forward() == forward) {
                targets.add(reference.targetId().nodeId());
            }
        }
        return targets;
    }

    private static <T extends UaStructure> T[] structures(Variant value, Class<T> type) {
        assertThat(value.type()).isEqualTo(BuiltinType.ExtensionObject);
        ExtensionObject[] objects = (ExtensionObject[]) value.value();
        @SuppressWarnings("unchecked")
        T[] result = (T[]) java.lang.reflect.Array.newInstance(type, objects.length);
        for (int i = 0; i < objects.length; i++) {
            result[i] = objects[i].decoded(type);
        }
        return result;
    }
}
