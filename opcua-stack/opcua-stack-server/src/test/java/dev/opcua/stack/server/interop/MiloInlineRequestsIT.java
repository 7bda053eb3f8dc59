package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.nodes.InMemoryNodeManagerBuilder;
import dev.opcua.stack.server.requests.RequestPoolSettings;
import dev.opcua.stack.server.testing.MiloClients;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Eclipse Milo 1.1.2's client reads and writes while {@code requests.inline-when-idle} decides where
 * the requests run: on the server's I/O thread when every node manager is non-blocking and nothing
 * waits, on workers when the setting is off or a manager may block. The node's supplier and write
 * handler record the thread that ran them.
 */
class MiloInlineRequestsIT {

    private static final String NS = "urn:test:milo:inline";
    private static final String IO_THREAD = "opcua-server-io-";
    private static final String WORKER_THREAD = "opcua-worker-";

    private final AtomicReference<String> readBy = new AtomicReference<>();
    private final AtomicReference<String> writtenBy = new AtomicReference<>();
    private OpcUaServer server;
    private OpcUaClient client;

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.disconnect();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void milo_reads_and_writes_run_on_the_io_thread_when_every_manager_is_non_blocking() throws Exception {
        start(InMemoryNodeManagerBuilder::nonBlockingCallbacks, RequestPoolSettings.DEFAULT);

        readAndWrite();

        assertThat(readBy.get()).startsWith(IO_THREAD);
        assertThat(writtenBy.get()).startsWith(IO_THREAD);
        assertThat(server.statistics().requests().ranInline()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void with_inline_when_idle_off_milo_reads_and_writes_run_on_workers() throws Exception {
        start(InMemoryNodeManagerBuilder::nonBlockingCallbacks, RequestPoolSettings.DEFAULT.withInlineWhenIdle(false));

        readAndWrite();

        assertThat(readBy.get()).startsWith(WORKER_THREAD);
        assertThat(writtenBy.get()).startsWith(WORKER_THREAD);
        assertThat(server.statistics().requests().ranInline()).isZero();
    }

    @Test
    void a_manager_whose_callbacks_may_block_sends_every_read_and_write_to_workers() throws Exception {
        start(builder -> { }, RequestPoolSettings.DEFAULT);

        readAndWrite();

        assertThat(readBy.get()).startsWith(WORKER_THREAD);
        assertThat(writtenBy.get()).startsWith(WORKER_THREAD);
        assertThat(server.statistics().requests().ranInline()).as("not even namespace 0's reads").isZero();
    }

    private void start(Consumer<InMemoryNodeManagerBuilder> nonBlocking, RequestPoolSettings requests)
            throws Exception {
        InMemoryNodeManagerBuilder nodes = InMemoryNodeManager.builder(NS)
                .variable("Probe", BuiltinType.Int32, v -> v.valueSupplier(() -> {
                    readBy.set(Thread.currentThread().getName());
                    return dev.opcua.stack.core.types.builtin.Variant.ofInt32(42);
                }))
                .variable("Setpoint", BuiltinType.Double, v -> v.value(dev.opcua.stack.core.types.builtin.Variant
                        .ofDouble(0.0)).onWrite((context, value) -> writtenBy.set(Thread.currentThread().getName())));
        nonBlocking.accept(nodes);
        server = OpcUaServer.builder()
                .applicationUri("urn:test:milo:inline:server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .requestPool(requests)
                .nodeManager(nodes.build())
                .build()
                .start();
        client = MiloClients.anonymousOverNone(server.endpointUrl());
    }

    private void readAndWrite() throws Exception {
        int ns = server.namespaces().indexOf(NS);
        DataValue probe = client.readValue(0, TimestampsToReturn.Both, new NodeId(ns, "Probe"));
        assertThat(probe.getValue().getValue()).isEqualTo(42);
        StatusCode written = client.writeValues(List.of(new NodeId(ns, "Setpoint")),
                List.of(new DataValue(new Variant(2.5)))).get(0);
        assertThat(written.isGood()).isTrue();
        DataValue setpoint = client.readValue(0, TimestampsToReturn.Both, new NodeId(ns, "Setpoint"));
        assertThat(setpoint.getValue().getValue()).isEqualTo(2.5);
    }
}
