package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DiagnosticInfo;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.testing.ScriptedOpcUaServer;
import dev.opcua.stack.server.transport.uasc.ResponseHeaders;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link OpcUaClient} against a {@link ScriptedOpcUaServer} that answers wrongly: each bad answer
 * ends in a clear error on the call it answered (or on the connect), within a bound, never in a hang,
 * and the connection stays usable where the channel itself is sound.
 */
class OpcUaClientBadServerTest {

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(1);
    /** How long any call may take here: the request timeout and a margin for a slow machine. */
    private static final Duration BOUND = Duration.ofSeconds(5);
    private static final NodeId SERVER_STATE = NodeId.ns0(NodeIds.Server_ServerStatus_State);
    private static final NodeId NAMESPACE_ARRAY = NodeId.ns0(NodeIds.Server_NamespaceArray);
    private static final int MAX_ARRAY_LENGTH = 100;

    private static ClientResources resources;
    private ScriptedOpcUaServer server;
    private OpcUaClient client;

    @BeforeAll
    static void createResources() {
        LeakWatch.install();
        resources = ClientResources.builder().ioThreads(1).build();
    }

    @AfterAll
    static void closeResources() throws InterruptedException {
        resources.close();
        LeakWatch.assertNoLeaks();
    }

    @BeforeEach
    void startServer() throws Exception {
        server = ScriptedOpcUaServer.start();
    }

    @AfterEach
    void closeClientAndServer() {
        try {
            if (client != null) {
                client.close();
            }
        } finally {
            server.close();
        }
    }

    private OpcUaClientConfig.Builder config() {
        return OpcUaClientConfig.builder(server.endpointUrl())
                .applicationName("opcua-java bad-server client")
                .resources(resources)
                .quotas(TransportQuotas.builder().maxArrayLength(MAX_ARRAY_LENGTH).build())
                .requestTimeout(REQUEST_TIMEOUT)
                .reconnectDelays(Duration.ofMillis(10), Duration.ofMillis(50));
    }

    private OpcUaClient connected() throws Exception {
        client = OpcUaClient.create(config().build());
        client.connect().get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
        return client;
    }

    /** Reads of {@code ns=1;s=<name>}, which the script answers wrongly. */
    private static NodeId scripted(String name) {
        return NodeId.string(1, name);
    }

    private static boolean reads(Object request, NodeId node) {
        return request instanceof ReadRequest read && read.nodesToRead().length > 0
                && read.nodesToRead()[0].nodeId().equals(node);
    }

    private void assertStillServes() throws Exception {
        DataValue state = client.readValue(SERVER_STATE).get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(state.value().value()).isEqualTo(0);
        assertThat(client.state()).isEqualTo(ClientState.CONNECTED);
    }

    @Test
    void a_malformed_response_body_fails_that_call_with_bad_decoding_error_and_the_channel_serves_on() throws Exception {
        connected();
        server.script((request, exchange) -> {
            if (!reads(request, scripted("Malformed"))) {
                return false;
            }
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            body.writeBytes(new byte[8]);                              // ResponseHeader.Timestamp
            body.writeBytes(le((int) exchange.requestHandle()));       // RequestHandle
            body.writeBytes(le(0));                                    // ServiceResult Good
            body.write(0);                                             // ServiceDiagnostics: empty mask
            body.writeBytes(le(-1));                                   // StringTable: null
            body.writeBytes(new byte[] {0, 0, 0});                     // AdditionalHeader: null NodeId, no body
            body.writeBytes(le(1));                                    // Results: one DataValue ...
            body.writeBytes(new byte[] {0x01, 0x06, 0x2A, 0x00});      // ... Value, Int32, and 2 of its 4 bytes
            exchange.respondRawReadResponse(body.toByteArray());
            return true;
        });

        assertFailsWithin(client.readValue(scripted("Malformed")), StatusCodes.BadDecodingError, "");
        assertStillServes();
    }

    @Test
    void a_response_under_another_request_id_is_dropped_and_the_call_fails_with_bad_timeout() throws Exception {
        connected();
        server.script((request, exchange) -> {
            if (!reads(request, scripted("Misrouted"))) {
                return false;
            }
            exchange.respondAsRequest(999_999, new ReadResponse(ResponseHeaders.good(exchange.requestHandle()),
                    new DataValue[] {DataValue.of(Variant.ofInt32(1))}, new DiagnosticInfo[0]));
            return true;
        });

        assertFailsWithin(client.readValue(scripted("Misrouted")), StatusCodes.BadTimeout, "no response");
        assertStillServes();
    }

    @Test
    void a_response_echoing_another_request_handle_fails_that_call_with_bad_unknown_response() throws Exception {
        connected();
        server.script((request, exchange) -> {
            if (!reads(request, scripted("Rehandled"))) {
                return false;
            }
            exchange.respond(new ReadResponse(ResponseHeaders.good(exchange.requestHandle() + 1),
                    new DataValue[] {DataValue.of(Variant.ofInt32(1))}, new DiagnosticInfo[0]));
            return true;
        });

        assertFailsWithin(client.readValue(scripted("Rehandled")), StatusCodes.BadUnknownResponse,
                "carries requestHandle");
        assertStillServes();
    }

    @Test
    void an_array_longer_than_the_clients_max_array_length_fails_that_call_with_bad_encoding_limits_exceeded() throws Exception {
        connected();
        server.script((request, exchange) -> {
            if (!reads(request, scripted("Huge"))) {
                return false;
            }
            exchange.respond(new ReadResponse(ResponseHeaders.good(exchange.requestHandle()), new DataValue[] {
                DataValue.of(Variant.ofArray(BuiltinType.Int32, new int[MAX_ARRAY_LENGTH + 1]))},
                    new DiagnosticInfo[0]));
            return true;
        });

        assertFailsWithin(client.readValue(scripted("Huge")), StatusCodes.BadEncodingLimitsExceeded,
                String.valueOf(MAX_ARRAY_LENGTH));
        assertStillServes();
    }

    @Test
    void the_request_observer_sees_each_requests_service_and_how_it_ended() throws Exception {
        List<String> observed = new java.util.concurrent.CopyOnWriteArrayList<>();
        client = OpcUaClient.create(config().requestObserver(service -> (status, failure) -> observed.add(
                service + " " + StatusCodes.name((int) status) + (failure == null ? "" : " " + failure.getClass().getSimpleName())))
                .build());
        client.connect().get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
        server.script((request, exchange) -> {
            if (!reads(request, scripted("Observed"))) {
                return false;
            }
            exchange.serviceFault(StatusCodes.BadTooManyOperations);
            return true;
        });
        observed.clear();

        client.readValue(SERVER_STATE).get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
        assertThatThrownBy(() -> client.readValue(scripted("Observed")).get(BOUND.toMillis(), TimeUnit.MILLISECONDS))
                .hasCauseInstanceOf(UaException.class);

        // the observer hears of the failure after the caller's future has failed; it hears of the connect's own
        // last Read after connect() completed (both on the I/O thread), so that one may follow the clear()
        await().atMost(BOUND).pollInterval(Duration.ofMillis(10))
                .until(() -> observed.contains("Read BadTooManyOperations UaException"));
        assertThat(observed.subList(observed.size() - 2, observed.size()))
                .containsExactly("Read Good", "Read BadTooManyOperations UaException");
    }

    @Test
    void a_service_fault_fails_the_call_with_its_service_result() throws Exception {
        connected();
        server.script((request, exchange) -> {
            if (!reads(request, scripted("Faulted"))) {
                return false;
            }
            exchange.serviceFault(StatusCodes.BadTooManyOperations);
            return true;
        });

        assertFailsWithin(client.readValue(scripted("Faulted")), StatusCodes.BadTooManyOperations, "ServiceFault");
        assertStillServes();
    }

    @Test
    void a_read_response_with_the_wrong_number_of_results_fails_with_bad_unexpected_error() throws Exception {
        connected();
        server.script((request, exchange) -> {
            if (!reads(request, scripted("Short"))) {
                return false;
            }
            exchange.respond(new ReadResponse(ResponseHeaders.good(exchange.requestHandle()),
                    new DataValue[] {DataValue.of(Variant.ofInt32(1))}, new DiagnosticInfo[0]));
            return true;
        });

        assertFailsWithin(client.readValues(List.of(scripted("Short"), scripted("Other"))),
                StatusCodes.BadUnexpectedError, "the server returned 1 results for 2 operations");
        assertFailsWithin(client.read(Stream.of("Short", "Other", "Third").map(name -> new ReadValueId(
                scripted(name), AttributeIds.Value, null, QualifiedName.NULL)).toList()),
                StatusCodes.BadUnexpectedError, "1 results for 3 operations");
        assertStillServes();
    }

    @Test
    void a_server_that_hangs_up_while_the_session_is_restored_fails_the_first_connect() throws Exception {
        server.script((request, exchange) -> {
            if (reads(request, NAMESPACE_ARRAY)) {
                exchange.hangUp();
                return true;
            }
            return false;
        });
        client = OpcUaClient.create(config().build());

        assertFailsWithin(client.connect(), StatusCodes.BadConnectionClosed, "");
        assertThat(client.state()).isEqualTo(ClientState.DISCONNECTED);
    }

    @Test
    void a_reconnect_whose_channel_closes_while_the_session_is_restored_is_retried_before_the_client_says_connected()
            throws Exception {
        connected();
        AtomicInteger namespaceReads = new AtomicInteger();
        server.script((request, exchange) -> {
            if (reads(request, scripted("HangUp"))
                    || reads(request, NAMESPACE_ARRAY) && namespaceReads.incrementAndGet() == 1) {
                exchange.hangUp(); // the trigger; then the first attempt's NamespaceArray Read
                return true;
            }
            return false;
        });
        CompletableFuture<DataValue> trigger = client.readValue(scripted("HangUp"));
        assertThatThrownBy(() -> trigger.get(BOUND.toMillis(), TimeUnit.MILLISECONDS))
                .hasCauseInstanceOf(UaException.class);

        await("the second reconnect attempt connected").atMost(BOUND).pollInterval(Duration.ofMillis(1))
                .until(() -> client.reconnects() == 1 && client.state() == ClientState.CONNECTED);

        assertThat(namespaceReads).hasValueGreaterThanOrEqualTo(2);
        assertThat(client.reconnects()).isEqualTo(1);
        assertStillServes();
    }

    private static byte[] le(int v) {
        return new byte[] {(byte) v, (byte) (v >>> 8), (byte) (v >>> 16), (byte) (v >>> 24)};
    }

    private static void assertFailsWithin(CompletableFuture<?> future, int status, String messagePart) {
        long start = System.nanoTime();
        assertThatThrownBy(() -> future.get(BOUND.toMillis(), TimeUnit.MILLISECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(UaException.class)
                .hasMessageContaining(messagePart)
                .satisfies((Consumer<Throwable>) e -> assertThat(((UaException) e).statusCode().value())
                        .as("status of %s", e).isEqualTo(status));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(BOUND);
    }
}
