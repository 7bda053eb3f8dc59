package dev.opcua.stack.server.nodes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.WriteValue;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.ObjectNode;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Direct sample sources of an in-memory manager: the answers of a Read, without the lookup per sample. */
class StoredValueSourceTest {

    private static final String NS = "urn:test:plant";
    private static final DateTime SOURCE_TIME = DateTime.ofEpochMillis(1_700_000_000_000L);

    private final NamespaceTable namespaces = new NamespaceTable("urn:test:server");
    private final NodeManagers managers = new NodeManagers(namespaces);
    private final NodeStore store = new NodeStore(8);
    private final NodeStoreNodeManager manager = new NodeStoreNodeManager(List.of(NS), store);
    private final NodeId line;
    private final NodeId speed;
    private final NodeId secret;

    StoredValueSourceTest() {
        managers.register(manager);
        int ns = namespaces.indexOf(NS);
        line = NodeId.string(ns, "Line1");
        speed = NodeId.string(ns, "Line1.Speed");
        secret = NodeId.string(ns, "Line1.Secret");
        store.add(new ObjectNode(line, QualifiedName.of(ns, "Line1"), null, LocalizedText.of("Line 1"), 0, 0, (short) 0));
        store.add(variable(speed, 12.5, (short) 3));
        store.add(variable(secret, 1.0, (short) 2)); // write only
    }

    private static VariableNode variable(NodeId id, double value, short accessLevel) {
        return new VariableNode(id, QualifiedName.of(id.namespaceIndex(), id.identifier().toString()), null, null, 0, 0,
                DataValue.of(Variant.ofDouble(value), StatusCode.GOOD, SOURCE_TIME, null),
                ValueAttributes.scalar(NodeId.ns0(NodeIds.Double)), accessLevel, accessLevel, 100.0, false, accessLevel);
    }

    private static ReadValueId value(NodeId node) {
        return new ReadValueId(node, AttributeIds.Value, null, QualifiedName.NULL);
    }

    private DataValue read(NodeId node) {
        return managers.read(OperationContext.INTERNAL, new ReadValueId[] {value(node)}, 0, TimestampsToReturn.Source)
                .join()[0];
    }

    @Test
    void answers_what_a_read_gives_and_the_same_instance_until_the_value_changes() {
        SampleSource source = manager.sampleSource(value(speed));
        DataValue first = source.sample();
        DataValue read = read(speed);
        assertThat(first.value()).isEqualTo(read.value());
        assertThat(first.statusCode()).isEqualTo(read.statusCode());
        assertThat(first.sourceTimestamp()).isEqualTo(read.sourceTimestamp()).isEqualTo(SOURCE_TIME);
        assertThat(source.sample()).as("unchanged: the same instance").isSameAs(first);

        StatusCode written = managers.write(OperationContext.INTERNAL, new WriteValue[] {
                new WriteValue(speed, AttributeIds.Value, null, DataValue.of(Variant.ofDouble(13.0)))}).join()[0];
        assertThat(written.isGood()).isTrue();
        DataValue second = source.sample();
        assertThat(second).isNotSameAs(first);
        assertThat(second.value()).isEqualTo(Variant.ofDouble(13.0));
    }

    @Test
    void a_variable_without_the_read_bit_samples_bad_not_readable_as_a_read_does() {
        SampleSource source = manager.sampleSource(value(secret));
        assertThat(source.sample().statusCode().value()).isEqualTo(StatusCodes.BadNotReadable)
                .isEqualTo(read(secret).statusCode().value());
    }

    @Test
    void a_removed_node_samples_bad_node_id_unknown_and_is_found_again_when_added_back() {
        SampleSource source = manager.sampleSource(value(speed));
        assertThat(source.sample().value()).isEqualTo(Variant.ofDouble(12.5));

        store.remove(speed);
        assertThat(source.sample().statusCode().value()).isEqualTo(StatusCodes.BadNodeIdUnknown)
                .isEqualTo(read(speed).statusCode().value());

        store.add(variable(speed, 99.0, (short) 3));
        assertThat(source.sample().value()).isEqualTo(Variant.ofDouble(99.0));
    }

    @Test
    void only_plain_values_of_variables_get_a_source_the_rest_is_sampled_through_read() {
        assertThat(manager.sampleSource(value(speed))).isNotNull();
        assertThat(manager.sampleSource(new ReadValueId(speed, AttributeIds.Value, "0", QualifiedName.NULL)))
                .as("index range").isNull();
        assertThat(manager.sampleSource(new ReadValueId(speed, AttributeIds.Value, null,
                QualifiedName.of(0, "Default Binary")))).as("data encoding").isNull();
        assertThat(manager.sampleSource(new ReadValueId(speed, AttributeIds.DisplayName, null, QualifiedName.NULL)))
                .as("another attribute").isNull();
        assertThat(manager.sampleSource(value(line))).as("an object").isNull();
        assertThat(manager.sampleSource(value(NodeId.string(namespaces.indexOf(NS), "Nope")))).as("unknown").isNull();
    }
}
