package dev.opcua.stack.server.nodes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.WriteValue;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.ObjectNode;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Read and Write through the node managers, against nodes kept in memory (Part 4, 5.11.2 and 5.11.4). */
class NodeStoreNodeManagerTest {

    private static final String NS = "urn:test:plant";
    private static final DateTime SOURCE_TIME = DateTime.ofEpochMillis(1_700_000_000_000L);

    private final NamespaceTable namespaces = new NamespaceTable("urn:test:server");
    private final NodeManagers managers = new NodeManagers(namespaces);
    private final int ns;
    private final NodeId line;
    private final NodeId speed;
    private final NodeId counter;
    private final NodeId recipe;
    private final NodeId samples;

    NodeStoreNodeManagerTest() {
        NodeStore store = new NodeStore(8);
        managers.register(new NodeStoreNodeManager(List.of(NS), store));
        ns = namespaces.indexOf(NS);
        line = NodeId.string(ns, "Line1");
        speed = NodeId.string(ns, "Line1.Speed");
        counter = NodeId.string(ns, "Line1.Counter");
        recipe = NodeId.string(ns, "Line1.Recipe");
        samples = NodeId.string(ns, "Line1.Samples");
        store.add(new ObjectNode(line, QualifiedName.of(ns, "Line1"), null, LocalizedText.of("en", "Line 1"), 0, 0,
                (short) 0));
        store.add(variable(speed, "Speed", Variant.ofDouble(12.5), ValueAttributes.scalar(NodeId.ns0(NodeIds.Double)),
                (short) 3));
        store.add(variable(counter, "Counter", Variant.ofInt32(7), ValueAttributes.scalar(NodeId.ns0(NodeIds.Int32)),
                (short) 1));
        store.add(variable(recipe, "Recipe", Variant.ofString("bread"), ValueAttributes.scalar(NodeId.ns0(NodeIds.String)),
                (short) 3));
        store.add(variable(samples, "Samples", Variant.ofArray(BuiltinType.Int32, new int[] {10, 20, 30, 40}),
                new ValueAttributes(NodeId.ns0(NodeIds.Int32), 1, new long[] {0}), (short) 3));
    }

    private static VariableNode variable(NodeId id, String name, Variant value, ValueAttributes attributes,
            short accessLevel) {
        return new VariableNode(id, QualifiedName.of(id.namespaceIndex(), name), null, null, 0, 0,
                DataValue.of(value, StatusCode.GOOD, SOURCE_TIME, null), attributes, accessLevel, accessLevel, 100.0,
                false, accessLevel);
    }

    private DataValue read(NodeId node, int attribute, String indexRange, TimestampsToReturn timestamps) {
        return managers.read(OperationContext.INTERNAL,
                new ReadValueId[] {new ReadValueId(node, attribute, indexRange, QualifiedName.NULL)}, 0, timestamps)
                .join()[0];
    }

    private DataValue read(NodeId node, int attribute) {
        return read(node, attribute, null, TimestampsToReturn.Both);
    }

    private StatusCode write(NodeId node, Variant value, String indexRange) {
        return managers.write(OperationContext.INTERNAL,
                new WriteValue[] {new WriteValue(node, AttributeIds.Value, indexRange, DataValue.of(value))}).join()[0];
    }

    @Test
    void reads_the_value_with_the_timestamps_asked_for() {
        DataValue both = read(speed, AttributeIds.Value);
        assertThat(both.value()).isEqualTo(Variant.ofDouble(12.5));
        assertThat(both.sourceTimestamp()).isEqualTo(SOURCE_TIME);
        assertThat(both.serverTimestamp()).isNotNull();

        DataValue source = read(speed, AttributeIds.Value, null, TimestampsToReturn.Source);
        assertThat(source.sourceTimestamp()).isEqualTo(SOURCE_TIME);
        assertThat(source.serverTimestamp()).isNull();

        DataValue neither = read(speed, AttributeIds.Value, null, TimestampsToReturn.Neither);
        assertThat(neither.sourceTimestamp()).isNull();
        assertThat(neither.serverTimestamp()).isNull();
    }

    @Test
    void reads_the_attributes_of_each_node_class_and_refuses_the_ones_it_lacks() {
        assertThat(read(line, AttributeIds.NodeClass).value()).isEqualTo(Variant.ofInt32(NodeClass.Object.value()));
        assertThat(read(line, AttributeIds.DisplayName).value()).isEqualTo(Variant.of(LocalizedText.of("Line1")));
        assertThat(read(line, AttributeIds.Description).value()).isEqualTo(Variant.of(LocalizedText.of("en", "Line 1")));
        assertThat(read(speed, AttributeIds.Description).value()).isEqualTo(Variant.NULL);
        assertThat(read(speed, AttributeIds.DataType).value()).isEqualTo(Variant.of(NodeId.ns0(NodeIds.Double)));
        assertThat(read(speed, AttributeIds.ValueRank).value()).isEqualTo(Variant.ofInt32(-1));
        assertThat(read(speed, AttributeIds.MinimumSamplingInterval).value()).isEqualTo(Variant.ofDouble(100.0));
        assertThat(read(line, AttributeIds.Value).statusCode().value()).isEqualTo(StatusCodes.BadAttributeIdInvalid);
        assertThat(read(speed, AttributeIds.IsAbstract).statusCode().value()).isEqualTo(StatusCodes.BadAttributeIdInvalid);
        assertThat(read(speed, 999).statusCode().value()).isEqualTo(StatusCodes.BadAttributeIdInvalid);
    }

    @Test
    void unknown_nodes_and_namespaces_read_BadNodeIdUnknown() {
        assertThat(read(NodeId.string(ns, "nope"), AttributeIds.Value).statusCode().value())
                .isEqualTo(StatusCodes.BadNodeIdUnknown);
        assertThat(read(NodeId.numeric(42, 1), AttributeIds.Value).statusCode().value())
                .isEqualTo(StatusCodes.BadNodeIdUnknown);
    }

    @Test
    void index_ranges_select_part_of_arrays_and_strings() {
        assertThat(read(samples, AttributeIds.Value, "1:2", TimestampsToReturn.Neither).value())
                .isEqualTo(Variant.ofArray(BuiltinType.Int32, new int[] {20, 30}));
        assertThat(read(samples, AttributeIds.Value, "3:9", TimestampsToReturn.Neither).value())
                .isEqualTo(Variant.ofArray(BuiltinType.Int32, new int[] {40}));
        assertThat(read(recipe, AttributeIds.Value, "0:2", TimestampsToReturn.Neither).value())
                .isEqualTo(Variant.ofString("bre"));
        assertThat(read(samples, AttributeIds.Value, "4", TimestampsToReturn.Neither).statusCode().value())
                .isEqualTo(StatusCodes.BadIndexRangeNoData);
        assertThat(read(samples, AttributeIds.Value, "2:1", TimestampsToReturn.Neither).statusCode().value())
                .isEqualTo(StatusCodes.BadIndexRangeInvalid);
        assertThat(read(samples, AttributeIds.Value, "x", TimestampsToReturn.Neither).statusCode().value())
                .isEqualTo(StatusCodes.BadIndexRangeInvalid);
        assertThat(read(speed, AttributeIds.Value, "0", TimestampsToReturn.Neither).statusCode().value())
                .isEqualTo(StatusCodes.BadIndexRangeNoData);
    }

    @Test
    void a_data_encoding_other_than_default_binary_is_refused() {
        DataValue[] values = managers.read(OperationContext.INTERNAL, new ReadValueId[] {
            new ReadValueId(speed, AttributeIds.Value, null, QualifiedName.of(0, "Default XML")),
            new ReadValueId(speed, AttributeIds.DisplayName, null, QualifiedName.of(0, "Default Binary")),
            new ReadValueId(speed, AttributeIds.Value, null, QualifiedName.of(0, "Default Binary"))},
                0, TimestampsToReturn.Neither).join();
        assertThat(values[0].statusCode().value()).isEqualTo(StatusCodes.BadDataEncodingUnsupported);
        assertThat(values[1].statusCode().value()).isEqualTo(StatusCodes.BadDataEncodingInvalid);
        assertThat(values[2].value()).isEqualTo(Variant.ofDouble(12.5));
    }

    @Test
    void writes_a_value_that_fits_the_data_type_and_reads_it_back() {
        assertThat(write(speed, Variant.ofDouble(99.0), null)).isEqualTo(StatusCode.GOOD);
        assertThat(read(speed, AttributeIds.Value).value()).isEqualTo(Variant.ofDouble(99.0));
        assertThat(write(samples, Variant.ofArray(BuiltinType.Int32, new int[] {1}), null)).isEqualTo(StatusCode.GOOD);
    }

    @Test
    void refuses_values_of_another_type_or_rank_and_read_only_variables() {
        assertThat(write(speed, Variant.ofInt32(1), null).value()).isEqualTo(StatusCodes.BadTypeMismatch);
        assertThat(write(speed, Variant.ofArray(BuiltinType.Double, new double[] {1}), null).value())
                .isEqualTo(StatusCodes.BadTypeMismatch);
        assertThat(write(samples, Variant.ofInt32(1), null).value()).isEqualTo(StatusCodes.BadTypeMismatch);
        assertThat(write(counter, Variant.ofInt32(8), null).value()).isEqualTo(StatusCodes.BadNotWritable);
        assertThat(read(counter, AttributeIds.Value).value()).isEqualTo(Variant.ofInt32(7));
    }

    @Test
    void refuses_writes_of_other_attributes_and_unknown_nodes() {
        StatusCode[] results = managers.write(OperationContext.INTERNAL, new WriteValue[] {
            new WriteValue(speed, AttributeIds.DisplayName, null, DataValue.of(Variant.of(LocalizedText.of("x")))),
            new WriteValue(NodeId.string(ns, "nope"), AttributeIds.Value, null, DataValue.of(Variant.ofDouble(1))),
            new WriteValue(speed, AttributeIds.IsAbstract, null, DataValue.of(Variant.ofBoolean(true)))}).join();
        assertThat(results).extracting(StatusCode::value).containsExactly(StatusCodes.BadNotWritable,
                StatusCodes.BadNodeIdUnknown, StatusCodes.BadAttributeIdInvalid);
    }

    @Test
    void an_index_range_write_replaces_that_part_of_the_value() {
        assertThat(write(samples, Variant.ofArray(BuiltinType.Int32, new int[] {21, 31}), "1:2"))
                .isEqualTo(StatusCode.GOOD);
        assertThat(read(samples, AttributeIds.Value).value())
                .isEqualTo(Variant.ofArray(BuiltinType.Int32, new int[] {10, 21, 31, 40}));
        assertThat(write(recipe, Variant.ofString("B"), "0")).isEqualTo(StatusCode.GOOD);
        assertThat(read(recipe, AttributeIds.Value).value()).isEqualTo(Variant.ofString("Bread"));

        assertThat(write(samples, Variant.ofArray(BuiltinType.Int32, new int[] {1}), "1:2").value())
                .isEqualTo(StatusCodes.BadIndexRangeInvalid);
        assertThat(write(samples, Variant.ofArray(BuiltinType.Int32, new int[] {1}), "9").value())
                .isEqualTo(StatusCodes.BadIndexRangeNoData);
        assertThat(write(samples, Variant.ofInt32(1), "1").value()).isEqualTo(StatusCodes.BadTypeMismatch);
        assertThat(write(samples, Variant.ofArray(BuiltinType.Int32, new int[] {1}), "x").value())
                .isEqualTo(StatusCodes.BadIndexRangeInvalid);
    }
}
