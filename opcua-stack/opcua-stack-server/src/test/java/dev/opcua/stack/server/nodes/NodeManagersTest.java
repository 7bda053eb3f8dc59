package dev.opcua.stack.server.nodes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.addressspace.NodeStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Routing of batched operations to node managers by namespace (DESIGN.md section 4). */
class NodeManagersTest {

    /** Records each read call and answers with the node's identifier, asynchronously. */
    static final class RecordingManager implements NodeManager {
        final String uri;
        final List<Integer> batchSizes = new ArrayList<>();
        final CompletableFuture<Void> gate = new CompletableFuture<>();

        RecordingManager(String uri) {
            this.uri = uri;
        }

        @Override
        public List<String> namespaceUris() {
            return List.of(uri);
        }

        @Override
        public CompletableFuture<Void> read(OperationContext context, List<ReadOperation> operations) {
            batchSizes.add(operations.size());
            return gate.thenRun(() -> operations.forEach(op ->
                    op.complete(DataValue.of(Variant.ofString(uri + "/" + op.item().nodeId().identifier())))));
        }

        @Override
        public CompletableFuture<Void> write(OperationContext context, List<WriteOperation> operations) {
            return CompletableFuture.completedFuture(null);
        }
    }

    private static ReadValueId value(NodeId id) {
        return new ReadValueId(id, AttributeIds.Value, null, QualifiedName.NULL);
    }

    @Test
    void each_manager_gets_one_call_per_request_and_results_keep_request_order() {
        NamespaceTable namespaces = new NamespaceTable("urn:s");
        NodeManagers managers = new NodeManagers(namespaces);
        RecordingManager a = new RecordingManager("urn:a");
        RecordingManager b = new RecordingManager("urn:b");
        managers.register(a);
        managers.register(b);
        int na = namespaces.indexOf("urn:a");
        int nb = namespaces.indexOf("urn:b");
        assertThat(na).isEqualTo(2);
        assertThat(nb).isEqualTo(3);

        CompletableFuture<DataValue[]> results = managers.read(OperationContext.INTERNAL, new ReadValueId[] {
            value(NodeId.numeric(na, 1)), value(NodeId.numeric(nb, 2)), value(NodeId.numeric(na, 3)),
            value(NodeId.numeric(9, 4))}, 0, TimestampsToReturn.Both);
        assertThat(results).isNotDone(); // the managers answer later: no worker waits for them
        a.gate.complete(null);
        b.gate.complete(null);

        assertThat(a.batchSizes).containsExactly(2);
        assertThat(b.batchSizes).containsExactly(1);
        DataValue[] values = results.join();
        assertThat(values[0].value()).isEqualTo(Variant.ofString("urn:a/1"));
        assertThat(values[1].value()).isEqualTo(Variant.ofString("urn:b/2"));
        assertThat(values[2].value()).isEqualTo(Variant.ofString("urn:a/3"));
        assertThat(values[3].statusCode().value()).isEqualTo(StatusCodes.BadNodeIdUnknown);
    }

    @Test
    void a_failing_or_forgetful_manager_leaves_BadInternalError_for_its_items_only() {
        NamespaceTable namespaces = new NamespaceTable("urn:s");
        NodeManagers managers = new NodeManagers(namespaces);
        RecordingManager good = new RecordingManager("urn:good");
        good.gate.complete(null);
        managers.register(good);
        managers.register(new NodeManager() {
            @Override
            public List<String> namespaceUris() {
                return List.of("urn:bad");
            }

            @Override
            public CompletableFuture<Void> read(OperationContext context, List<ReadOperation> operations) {
                throw new IllegalStateException("device offline");
            }

            @Override
            public CompletableFuture<Void> write(OperationContext context, List<WriteOperation> operations) {
                return CompletableFuture.completedFuture(null); // completes nothing
            }
        });
        int good0 = namespaces.indexOf("urn:good");
        int bad = namespaces.indexOf("urn:bad");
        DataValue[] values = managers.read(OperationContext.INTERNAL,
                new ReadValueId[] {value(NodeId.numeric(bad, 1)), value(NodeId.numeric(good0, 2))}, 0,
                TimestampsToReturn.Both).join();
        assertThat(values[0].statusCode().value()).isEqualTo(StatusCodes.BadInternalError);
        assertThat(values[1].value()).isEqualTo(Variant.ofString("urn:good/2"));

        StatusCode[] written = managers.write(OperationContext.INTERNAL, new dev.opcua.stack.core.types.structured.WriteValue[] {
            new dev.opcua.stack.core.types.structured.WriteValue(NodeId.numeric(bad, 1), AttributeIds.Value, null,
                    DataValue.of(Variant.ofInt32(1)))}).join();
        assertThat(written[0].value()).isEqualTo(StatusCodes.BadInternalError);
    }

    @Test
    void two_managers_cannot_own_the_same_namespace() {
        NodeManagers managers = new NodeManagers(new NamespaceTable("urn:s"));
        managers.register(new RecordingManager("urn:x"));
        assertThatThrownBy(() -> managers.register(new RecordingManager("urn:x")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("urn:x");
    }

    @Test
    void the_namespace_table_starts_with_the_standard_and_the_server_namespace() {
        NamespaceTable namespaces = new NamespaceTable("urn:acme:line1");
        assertThat(namespaces.toArray()).containsExactly(NamespaceTable.OPC_UA_NAMESPACE, "urn:acme:line1");
        assertThat(namespaces.register("urn:x")).isEqualTo(2);
        assertThat(namespaces.register("urn:x")).isEqualTo(2);
        assertThat(namespaces.uri(2)).isEqualTo("urn:x");
        assertThat(namespaces.uri(3)).isNull();
    }

    @Test
    void all_managers_are_non_blocking_until_one_that_may_block_is_registered() {
        NodeManagers managers = new NodeManagers(new NamespaceTable("urn:s"));
        assertThat(managers.allNonBlocking()).as("none registered").isTrue();
        managers.register(new NodeStoreNodeManager(List.of("urn:memory"), new NodeStore(1), true));
        assertThat(managers.allNonBlocking()).isTrue();
        managers.register(new NodeStoreNodeManager(List.of("urn:sources"), new NodeStore(1)));
        assertThat(managers.allNonBlocking()).as("a store whose value sources are the application's").isFalse();
        managers.register(new NodeStoreNodeManager(List.of("urn:memory2"), new NodeStore(1), true));
        assertThat(managers.allNonBlocking()).as("one that may block is enough").isFalse();

        NodeManagers withDevice = new NodeManagers(new NamespaceTable("urn:s"));
        withDevice.register(new RecordingManager("urn:device"));
        assertThat(withDevice.allNonBlocking()).as("NodeManager's default").isFalse();
    }
}
