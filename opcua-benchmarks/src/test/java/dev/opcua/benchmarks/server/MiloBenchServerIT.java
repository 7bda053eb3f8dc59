package dev.opcua.benchmarks.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import org.junit.jupiter.api.Test;

class MiloBenchServerIT {

    @Test
    void serves_the_bench_address_space() throws Exception {
        try (RunningBenchServer server = MiloBenchServer.start(AddressSpaceChecks.options())) {
            assertThat(server.namespaceIndex()).isEqualTo(2);
            AddressSpaceChecks.readsWritesCallsAndBrowses(server);
        }
    }

    @Test
    void both_servers_have_the_same_names_and_ids() throws Exception {
        try (RunningBenchServer ours = BenchServer.start(AddressSpaceChecks.options());
                RunningBenchServer milo = MiloBenchServer.start(AddressSpaceChecks.options());
                BenchClient ourClient = BenchClient.connect(ours.endpointUrl());
                BenchClient miloClient = BenchClient.connect(milo.endpointUrl())) {
            assertThat(ours.namespaceIndex()).isEqualTo(milo.namespaceIndex());
            int ns = ours.namespaceIndex();
            for (NodeId node : new NodeId[] {NodeId.string(ns, "Bench"), NodeId.string(ns, "Methods"),
                    NodeId.ns0(NodeIds.ObjectsFolder)}) {
                assertThat(AddressSpaceChecks.names(ourClient.browse(node)))
                        .as("children of %s", node)
                        .isEqualTo(AddressSpaceChecks.names(miloClient.browse(node)));
            }
        }
    }
}
