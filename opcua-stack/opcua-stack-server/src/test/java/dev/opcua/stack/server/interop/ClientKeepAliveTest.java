package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.connection.ConnectionManager;
import dev.opcua.stack.server.testing.ScriptedOpcUaServer;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.ReadRequest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The keep-alive of the client's {@link ConnectionManager} against a {@link ScriptedOpcUaServer} that answers
 * the ServerStatus/State Reads as each test says: how failures are counted, what a success does to the
 * count, and which failure loses the connection at once. Without hooks the keep-alive's Reads are the
 * only ones the client sends, so the server's count of them is the keep-alive's.
 */
class ClientKeepAliveTest {

    private static final NodeId SERVER_STATE = NodeId.ns0(NodeIds.Server_ServerStatus_State);
    private static final Duration PATIENCE = Duration.ofSeconds(10);
    private static final int GOOD = 0;

    private static ClientResources resources;
    private ScriptedOpcUaServer server;
    private ConnectionManager connection;
    private final AtomicInteger stateReads = new AtomicInteger();
    private final List<String> changes = new CopyOnWriteArrayList<>();
    /**
     * The number of faulted keep-alive Reads when the listener heard of the loss; -1 until it did. No
     * Read follows a loss for the reconnect delay, so the count stands still by then.
     */
    private final AtomicInteger faultsAtLoss = new AtomicInteger(-1);
    private final AtomicInteger faults = new AtomicInteger();

    @BeforeAll
    static void createResources() {
        resources = ClientResources.builder().ioThreads(1).build();
    }

    @AfterAll
    static void closeResources() {
        resources.close();
    }

    @BeforeEach
    void startServer() throws Exception {
        server = ScriptedOpcUaServer.start();
    }

    @AfterEach
    void disconnectAndStopServer() throws Exception {
        try {
            if (connection != null) {
                connection.disconnect().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            }
        } finally {
            server.close();
        }
    }

    /** Answers the n-th ServerStatus/State Read (from 1) with the status {@code answer} gives, GOOD: the value. */
    private void answerKeepAlives(IntUnaryOperator answer) {
        server.script((request, exchange) -> {
            if (request instanceof ReadRequest read && read.nodesToRead().length == 1
                    && read.nodesToRead()[0].nodeId().equals(SERVER_STATE)) {
                int status = answer.applyAsInt(stateReads.incrementAndGet());
                if (status != GOOD) {
                    faults.incrementAndGet();
                    exchange.serviceFault(status);
                    return true;
                }
            }
            return false;
        });
    }

    private void connect(int failuresAllowed) throws Exception {
        connection = new ConnectionManager(OpcUaClientConfig.builder(server.endpointUrl())
                .applicationName("opcua-java keep-alive client")
                .resources(resources)
                .requestTimeout(Duration.ofSeconds(2))
                .keepAliveInterval(Duration.ofMillis(20))
                .keepAliveFailuresAllowed(failuresAllowed)
                .reconnectDelays(Duration.ofSeconds(5), Duration.ofSeconds(5))
                .build());
        connection.addStateListener((previous, current, cause) -> {
            changes.add(previous + "->" + current);
            if (current == ClientState.RECONNECTING) {
                faultsAtLoss.compareAndSet(-1, faults.get());
            }
        });
        connection.connect().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
    }

    @Test
    void one_failure_more_than_allowed_in_a_row_loses_the_connection() throws Exception {
        answerKeepAlives(n -> StatusCodes.BadInternalError);
        connect(2);

        await().atMost(PATIENCE).until(() -> faultsAtLoss.get() >= 0); // the listener was told

        assertThat(faultsAtLoss).hasValue(3);
        assertThat(connection.lastError()).isInstanceOfSatisfying(UaException.class, e -> {
            assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadInternalError);
            assertThat(e.getMessage()).contains("the keep-alive Read failed");
        });
    }

    @Test
    void a_success_between_failures_starts_the_count_again() throws Exception {
        answerKeepAlives(n -> n % 3 == 0 ? GOOD : StatusCodes.BadInternalError); // fail, fail, succeed, ...
        connect(2);

        await().atMost(PATIENCE).until(() -> stateReads.get() >= 15 || connection.state() != ClientState.CONNECTED);

        assertThat(connection.state()).isEqualTo(ClientState.CONNECTED);
        assertThat(changes).containsExactly("DISCONNECTED->CONNECTING", "CONNECTING->CONNECTED");
    }

    @Test
    void a_keep_alive_answered_with_a_lost_session_loses_the_connection_at_once() throws Exception {
        answerKeepAlives(n -> n == 1 ? StatusCodes.BadSessionIdInvalid : GOOD);
        connect(5);

        await().atMost(PATIENCE).until(() -> faultsAtLoss.get() >= 0); // the listener was told

        assertThat(faultsAtLoss).hasValue(1);
        assertThat(((UaException) connection.lastError()).statusCode().value()).isEqualTo(StatusCodes.BadSessionIdInvalid);
    }

    @Test
    void no_keep_alive_is_sent_once_disconnected() throws Exception {
        answerKeepAlives(n -> GOOD);
        connect(0);
        await().atMost(PATIENCE).until(() -> stateReads.get() >= 2);

        connection.disconnect().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        int afterDisconnect = stateReads.get();

        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(1))
                .until(() -> stateReads.get() == afterDisconnect);
    }
}
