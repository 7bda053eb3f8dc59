package dev.opcua.stack.client.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.OpcUaClientConfig.WhileReconnecting;
import dev.opcua.stack.client.services.ServiceInvoker;
import dev.opcua.stack.client.testing.ManualTimer;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.UaRequestMessage;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.RequestHeader;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The {@link RequestGate} while no session is active: which requests wait, which are refused at once
 * and why, how long they wait, and how the reconnector takes them over. Nothing here has a channel:
 * the tests set the connection's state and play the timer.
 */
class RequestGateTest {

    private static final long REQUEST_TIMEOUT_MS = 2_000;

    private final ManualTimer timer = new ManualTimer();
    private final ConnectionStatus status = new ConnectionStatus();
    private final AtomicInteger built = new AtomicInteger();
    private final Function<RequestHeader, UaRequestMessage> read = header -> {
        built.incrementAndGet();
        return new ReadRequest(header, 0, TimestampsToReturn.Both, new ReadValueId[0]);
    };

    private static OpcUaClientConfig.Builder config() {
        return OpcUaClientConfig.builder("opc.tcp://gate.test:4840/").requestTimeout(Duration.ofMillis(REQUEST_TIMEOUT_MS));
    }

    private RequestGate gate(OpcUaClientConfig config) {
        return new RequestGate(config, status, timer, Runnable::run);
    }

    private void reconnecting(String lastError) {
        status.state(ClientState.RECONNECTING);
        status.lastError(new UaException(StatusCodes.BadConnectionClosed, lastError));
    }

    @Test
    void while_reconnecting_a_request_waits_unbuilt_for_its_timeout_and_then_fails_with_BadTimeout() {
        RequestGate gate = gate(config().build());
        reconnecting("the server hung up");

        CompletableFuture<ReadResponse> response = gate.send(read, ReadResponse.class);

        assertThat(response).isNotDone();
        assertThat(built).as("built only once a session is there to put in its header").hasValue(0);
        assertThat(timer.pendingDelays()).containsExactly(REQUEST_TIMEOUT_MS);
        timer.advance(REQUEST_TIMEOUT_MS - 1);
        assertThat(response).isNotDone();
        timer.advance(1);
        assertThat(failure(response)).satisfies(e -> {
            assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadTimeout);
            assertThat(e.getMessage()).contains("within 2000 ms", "RECONNECTING", "the server hung up");
        });
    }

    @Test
    void a_request_with_its_own_timeout_waits_that_long() {
        RequestGate gate = gate(config().build());
        reconnecting("gone");

        CompletableFuture<ReadResponse> publishLike = gate.send(read, ReadResponse.class, 30_000);

        assertThat(timer.pendingDelays()).containsExactly(30_000L);
        timer.advance(REQUEST_TIMEOUT_MS);
        assertThat(publishLike).isNotDone();
    }

    @Test
    void every_form_of_sending_waits_while_reconnecting() {
        RequestGate gate = gate(config().build());
        reconnecting("gone");
        ServiceInvoker.Call<ReadResponse, Integer> call = new ServiceInvoker.Call<>() {
            @Override
            public UaRequestMessage request(RequestHeader header) {
                return read.apply(header);
            }

            @Override
            public Integer apply(ReadResponse response) {
                return 1;
            }
        };

        List<CompletableFuture<?>> sent = List.of(gate.send(read, ReadResponse.class),
                gate.send(read, ReadResponse.class, 5_000), gate.send(read, ReadResponse.class, r -> 1),
                gate.sendCall(call, ReadResponse.class), gate.sendCompletingOnIoThread(read, ReadResponse.class, 5_000));

        assertThat(sent).noneMatch(CompletableFuture::isDone);
        assertThat(timer.pending()).isEqualTo(5);
        assertThat(built).hasValue(0);
    }

    @Test
    void while_disconnected_a_request_fails_at_once_with_BadNotConnected_and_the_last_error() {
        RequestGate gate = gate(config().build());
        status.lastError(new UaException(StatusCodes.BadCertificateUntrusted, "the server's certificate is untrusted"));

        CompletableFuture<ReadResponse> response = gate.send(read, ReadResponse.class);

        assertThat(failure(response)).satisfies(e -> {
            assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadNotConnected);
            assertThat(e.getMessage()).contains("not connected to opc.tcp://gate.test:4840/",
                    "the server's certificate is untrusted");
        });
        assertThat(timer.pending()).isZero();
    }

    @Test
    void with_fail_fast_a_request_while_reconnecting_fails_at_once_naming_the_state() {
        RequestGate gate = gate(config().whileReconnecting(WhileReconnecting.FAIL_FAST).build());
        reconnecting("the server hung up");

        CompletableFuture<ReadResponse> response = gate.send(read, ReadResponse.class);

        assertThat(failure(response)).satisfies(e -> {
            assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadNotConnected);
            assertThat(e.getMessage()).contains("RECONNECTING", "the server hung up");
        });
        assertThat(built).hasValue(0);
    }

    @Test
    void while_connecting_requests_wait_as_while_reconnecting() {
        RequestGate gate = gate(config().build());
        status.state(ClientState.CONNECTING);

        assertThat(gate.send(read, ReadResponse.class)).isNotDone();
    }

    @Test
    void requests_beyond_maxWaitingRequests_fail_at_once_and_the_others_keep_waiting() {
        RequestGate gate = gate(config().maxWaitingRequests(2).build());
        reconnecting("gone");

        CompletableFuture<ReadResponse> first = gate.send(read, ReadResponse.class);
        CompletableFuture<ReadResponse> second = gate.send(read, ReadResponse.class);
        CompletableFuture<ReadResponse> third = gate.send(read, ReadResponse.class);

        assertThat(first).isNotDone();
        assertThat(second).isNotDone();
        assertThat(failure(third)).satisfies(e -> {
            assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadNotConnected);
            assertThat(e.getMessage()).contains("2 requests already wait (maxWaitingRequests)");
        });
    }

    @Test
    void a_request_that_timed_out_frees_its_place_for_another() {
        RequestGate gate = gate(config().maxWaitingRequests(1).build());
        reconnecting("gone");
        gate.send(read, ReadResponse.class, 100);

        timer.advance(100);

        assertThat(gate.send(read, ReadResponse.class)).isNotDone();
    }

    @Test
    void the_reconnector_takes_the_waiting_requests_in_order_with_their_timeouts_stopped() {
        RequestGate gate = gate(config().build());
        reconnecting("gone");
        CompletableFuture<ReadResponse> first = gate.send(read, ReadResponse.class);
        CompletableFuture<ReadResponse> second = gate.send(read, ReadResponse.class, 500);

        List<RequestGate.Waiting<?>> taken = gate.takeWaiting();

        assertThat(taken).hasSize(2);
        assertThat(timer.pending()).isZero();
        assertThat(gate.takeWaiting()).isEmpty();
        UaException disconnected = new UaException(StatusCodes.BadNotConnected, "disconnected");
        taken.get(1).fail(disconnected);
        assertThat(failure(second)).isSameAs(disconnected);
        assertThat(first).isNotDone();
        timer.advance(REQUEST_TIMEOUT_MS * 2);
        assertThat(first).as("no longer timed out by the gate").isNotDone();
    }

    @Test
    void a_request_that_finds_the_timer_stopped_fails_with_BadShutdown_and_does_not_wait() {
        Timer stopped = new Timer() {
            @Override
            public Timeout newTimeout(TimerTask task, long delay, TimeUnit unit) {
                throw new IllegalStateException("cannot be started once stopped");
            }

            @Override
            public Set<Timeout> stop() {
                return Set.of();
            }
        };
        RequestGate gate = new RequestGate(config().build(), status, stopped, Runnable::run);
        reconnecting("gone");

        assertThat(failure(gate.send(read, ReadResponse.class)).statusCode().value()).isEqualTo(StatusCodes.BadShutdown);
        assertThat(gate.takeWaiting()).isEmpty();
    }

    @Test
    void without_an_active_session_the_gate_has_none_to_give() {
        RequestGate gate = gate(config().build());

        assertThat(gate.active()).isNull();
        assertThat(gate.close()).isNull();
    }

    private static UaException failure(CompletableFuture<?> future) {
        assertThat(future).isCompletedExceptionally();
        Throwable thrown = catchThrowable(future::join);
        return (UaException) thrown.getCause();
    }
}
