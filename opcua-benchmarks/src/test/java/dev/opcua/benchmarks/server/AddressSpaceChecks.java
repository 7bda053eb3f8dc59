package dev.opcua.benchmarks.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.CallMethodResult;
import dev.opcua.stack.core.types.structured.ReferenceDescription;
import java.time.Duration;
import java.util.List;

/** The checks every bench server passes, whoever implements it. */
final class AddressSpaceChecks {

    static final int NODES = 10;

    private AddressSpaceChecks() {
    }

    static BenchOptions options() {
        return BenchOptions.DEFAULT.withPort(0).withNodes(NODES);
    }

    static void readsWritesCallsAndBrowses(RunningBenchServer server) throws Exception {
        int ns = server.namespaceIndex();
        assertThat(ns).isPositive();
        try (BenchClient client = BenchClient.connect(server.endpointUrl())) {
            DataValue var0 = client.read(NodeId.string(ns, "Var.0"));
            assertThat(var0.statusCode().isGood()).as("%s", var0).isTrue();
            assertThat(var0.value().value()).isEqualTo(0.0);
            assertThat(client.read(NodeId.string(ns, "Var." + (NODES - 1))).value().value()).isEqualTo(0.0);
            assertThat(client.read(NodeId.string(ns, "Var." + NODES)).statusCode().isGood()).isFalse();

            NodeId counter = NodeId.string(ns, "Counter");
            Object first = client.read(counter).value().value();
            assertThat(first).isInstanceOf(Integer.class);
            await("the counter counts").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                    .until(() -> client.read(counter).value().value(), value -> !value.equals(first));

            NodeId var1 = NodeId.string(ns, "Var.1");
            assertThat(client.write(var1, Variant.ofDouble(42.5)).isGood()).isTrue();
            assertThat(client.read(var1).value().value()).isEqualTo(42.5);

            CallMethodResult sum = client.call(NodeId.string(ns, "Methods"), NodeId.string(ns, "Methods.Add"),
                    Variant.ofInt32(2), Variant.ofInt32(3));
            assertThat(sum.statusCode().isGood()).as("%s", sum.statusCode()).isTrue();
            assertThat(sum.outputArguments()[0].value()).isEqualTo(5);

            NodeId emit = NodeId.string(ns, BenchAddressSpace.EMIT);
            CallMethodResult emitted = client.call(NodeId.string(ns, "Methods"), emit, Variant.ofInt64(7),
                    Variant.ofInt32(3));
            assertThat(emitted.statusCode().isGood()).as("%s", emitted.statusCode()).isTrue();
            CallMethodResult tooMany = client.call(NodeId.string(ns, "Methods"), emit, Variant.ofInt64(7),
                    Variant.ofInt32(BenchAddressSpace.MAX_EMIT + 1));
            assertThat(tooMany.statusCode().isSameCode(StatusCodes.BadInvalidArgument))
                    .as("%s", tooMany.statusCode()).isTrue();

            assertThat(names(client.browse(NodeId.string(ns, "Bench")))).hasSize(NODES + 2)
                    .contains(ns + ":Var0 s=Var.0", ns + ":Var9 s=Var.9", ns + ":Counter s=Counter",
                            ns + ":Simulated s=Simulated");
            assertThat(names(client.browse(NodeId.ns0(NodeIds.ObjectsFolder))))
                    .contains(ns + ":Bench s=Bench", ns + ":Methods s=Methods");
            assertThat(names(client.browse(NodeId.string(ns, "Methods"))))
                    .contains(ns + ":Add s=Methods.Add", ns + ":Emit s=Methods.Emit");
        }
    }

    /** "ns:BrowseName s=identifier" of each reference into the bench namespace, sorted. */
    static List<String> names(List<ReferenceDescription> references) {
        return references.stream()
                .filter(r -> r.nodeId().nodeId().namespaceIndex() != 0)
                .map(r -> r.browseName().namespaceIndex() + ":" + r.browseName().name() + " s="
                        + r.nodeId().nodeId().stringId())
                .sorted()
                .toList();
    }
}
