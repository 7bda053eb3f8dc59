package dev.opcua.stack.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.types.enumerated.ServerState;
import dev.opcua.stack.server.nodes.NodeManager;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.nodes.ReadOperation;
import dev.opcua.stack.server.nodes.WriteOperation;
import dev.opcua.stack.server.requests.RequestPoolSettings;
import dev.opcua.stack.server.requests.RequestStatistics;
import dev.opcua.stack.server.transport.UaTcpBindException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * What {@link OpcUaServer#start()} and {@link OpcUaServer#close()} leave behind: the lifecycle, the
 * statistics view before, during and after a run, and a failed start that closes what it opened.
 */
class OpcUaServerStartAndCloseTest {

    private static OpcUaServer.Builder localServer() {
        return OpcUaServer.builder().bindAddress("127.0.0.1").port(0).hostnames(List.of("127.0.0.1"));
    }

    @Test
    void statistics_read_nothing_before_the_start_and_the_counts_of_the_last_run_after_the_close() {
        OpcUaServer server = localServer().build();
        ServerStatistics statistics = server.statistics();
        assertThat(statistics.requests()).isNull();
        assertThat(statistics.sessionCounters()).isNull();
        assertThat(statistics.transport()).isNull();
        assertThat(statistics.subscriptions()).isNull();
        assertThat(statistics.currentSessions()).isZero();
        assertThat(statistics.sessions()).isEmpty();
        assertThat(statistics.virtualThreadWorkers()).isFalse();
        assertThat(statistics.continuationPointsRefused()).isZero();
        assertThat(statistics.browsePathsRefused()).isZero();
        assertThat(statistics.historyBacklog()).isZero();
        assertThatThrownBy(server::port).isInstanceOf(IllegalStateException.class).hasMessageContaining("not started");

        server.start();
        RequestStatistics requests;
        try {
            assertThat(server.statistics()).isSameAs(statistics);
            requests = statistics.requests();
            assertThat(requests.queueCapacity()).isEqualTo(RequestPoolSettings.DEFAULT.maxQueued());
            assertThat(statistics.sessionCounters().sessionsCreated()).isZero();
            assertThat(statistics.transport().openConnections()).isZero();
            assertThat(statistics.subscriptions().subscriptions()).isZero();
            assertThat(statistics.historyValuesRecorded()).as("no history store").isZero();
        } finally {
            server.close();
        }
        assertThat(statistics.requests()).isSameAs(requests);
        assertThat(statistics.transport()).isNotNull();
        assertThat(server.serverStatus().state()).isEqualTo(ServerState.Shutdown);
    }

    @Test
    void a_server_started_again_after_its_close_counts_its_new_run() {
        OpcUaServer server = localServer().build();
        server.start();
        RequestStatistics first = server.statistics().requests();
        server.close();
        server.start();
        try {
            assertThat(server.lifecycle()).isEqualTo(OpcUaServer.Lifecycle.RUNNING);
            assertThat(server.statistics().requests()).isNotNull().isNotSameAs(first);
            assertThat(server.endpoints()).singleElement()
                    .satisfies(endpoint -> assertThat(endpoint.endpointUrl()).isEqualTo(server.endpointUrl()));
        } finally {
            server.close();
        }
        assertThat(server.lifecycle()).isEqualTo(OpcUaServer.Lifecycle.STOPPED);
    }

    @Test
    void a_running_server_refuses_a_second_start() {
        try (OpcUaServer server = localServer().build().start()) {
            assertThatThrownBy(server::start).isInstanceOf(IllegalStateException.class)
                    .hasMessage("the server was already started");
            assertThat(server.isRunning()).isTrue();
        }
    }

    @Test
    void a_start_that_cannot_bind_shuts_the_node_managers_down_again_and_leaves_the_server_unstarted() {
        RecordingNodeManager recording = new RecordingNodeManager();
        try (OpcUaServer holder = localServer().build().start()) {
            OpcUaServer server = localServer().port(holder.port()).nodeManager(recording).build();

            assertThatThrownBy(server::start).isInstanceOf(UaTcpBindException.class);

            assertThat(recording.calls).containsExactly("startup", "shutdown");
            assertThat(server.lifecycle()).isEqualTo(OpcUaServer.Lifecycle.NOT_STARTED);
            assertThat(server.isRunning()).isFalse();
            assertThat(server.statistics().requests()).isNull();
            assertThat(server.endpoints()).isEmpty();
            assertThat(server.applicationCertificate()).isNull();
        }
    }

    /** Records when the server starts and stops it. */
    private static final class RecordingNodeManager implements NodeManager {

        final List<String> calls = new CopyOnWriteArrayList<>();

        @Override
        public List<String> namespaceUris() {
            return List.of("urn:test:recording");
        }

        @Override
        public void startup(NamespaceTable namespaces) {
            calls.add("startup");
        }

        @Override
        public void shutdown() {
            calls.add("shutdown");
        }

        @Override
        public CompletableFuture<Void> read(OperationContext context, List<ReadOperation> operations) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<Void> write(OperationContext context, List<WriteOperation> operations) {
            return CompletableFuture.completedFuture(null);
        }
    }
}
