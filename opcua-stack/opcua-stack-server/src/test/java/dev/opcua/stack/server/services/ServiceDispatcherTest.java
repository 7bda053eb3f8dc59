package dev.opcua.stack.server.services;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.server.transport.uasc.ResponseHeaders;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.CloseSessionRequest;
import dev.opcua.stack.core.types.structured.CloseSessionResponse;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.FindServersRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsResponse;
import dev.opcua.stack.core.types.structured.PublishRequest;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.ServiceFault;
import dev.opcua.stack.server.requests.RejectReason;
import dev.opcua.stack.server.requests.RequestPoolSettings;
import dev.opcua.stack.server.requests.RequestStatistics;
import dev.opcua.stack.server.testing.Hex;
import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.testing.RecordingChannel;
import dev.opcua.stack.server.testing.TestChunks;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Admission of encoded requests into the fair queue, dispatch to handlers on worker threads, and the
 * ServiceFaults of Part 4, 5.3 and 7.39.2 (BadServerTooBusy, BadTimeout, BadServerHalted).
 */
class ServiceDispatcherTest {

    /** How long a worker may take to count a request, and how often the test looks. */
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final Duration POLL = Duration.ofMillis(2);

    private final RecordingChannel channel = new RecordingChannel();
    private final List<ByteBuf> messages = new ArrayList<>();
    private ServiceDispatcher dispatcher;

    @BeforeAll
    static void watchLeaks() {
        LeakWatch.install();
    }

    @AfterAll
    static void nothingLeaked() throws InterruptedException {
        LeakWatch.assertNoLeaks();
    }

    @AfterEach
    void closeAndCheckBuffers() {
        if (dispatcher != null) {
            dispatcher.close();
        }
        for (ByteBuf message : messages) {
            assertThat(message.refCnt()).as("request buffer released").isZero();
        }
    }

    @Test
    void a_registered_handler_answers_on_a_worker_thread() {
        dispatcher = ServiceDispatcher.builder()
                .registerSync(GetEndpointsRequest.class, (ch, request) -> new GetEndpointsResponse(
                        ResponseHeaders.good(request.requestHeader().requestHandle()), new EndpointDescription[0]))
                .build();

        dispatcher.onRequest(channel, 5, message(getEndpoints(77)));

        RecordingChannel.Answer answer = channel.next();
        assertThat(answer.requestId()).isEqualTo(5);
        assertThat(answer.thread()).startsWith("opcua-worker-");
        assertThat(((GetEndpointsResponse) answer.message()).responseHeader().requestHandle()).isEqualTo(77);
    }

    @Test
    void an_asynchronous_handler_is_answered_when_its_future_completes() {
        CompletableFuture<UaStructure> later = new CompletableFuture<>();
        dispatcher = ServiceDispatcher.builder().register(GetEndpointsRequest.class, (ch, request) -> later).build();

        dispatcher.onRequest(channel, 5, message(getEndpoints(77)));
        later.complete(new GetEndpointsResponse(ResponseHeaders.good(77), new EndpointDescription[0]));

        assertThat(channel.next().message()).isInstanceOf(GetEndpointsResponse.class);
    }

    @Test
    void a_request_without_handler_gets_service_unsupported_with_its_handle() {
        dispatcher = ServiceDispatcher.builder().build();

        dispatcher.onRequest(channel, 5, message(findServers(31)));

        assertFault(channel.next(), StatusCodes.BadServiceUnsupported, 31);
    }

    @Test
    void an_unknown_encoding_id_gets_service_unsupported() {
        dispatcher = ServiceDispatcher.builder().build();
        byte[] request = TestChunks.encodeMessage(getEndpoints(31));
        request[2] = 0x0F; // encoding id i=0x01AC becomes i=0x0FAC, which no codec knows

        dispatcher.onRequest(channel, 5, message(request));

        assertFault(channel.next(), StatusCodes.BadServiceUnsupported, 31);
    }

    @Test
    void a_truncated_request_gets_decoding_error_with_its_handle() {
        dispatcher = ServiceDispatcher.builder().registerSync(GetEndpointsRequest.class, (ch, r) -> null).build();
        byte[] request = TestChunks.encodeMessage(getEndpoints(31));

        dispatcher.onRequest(channel, 5, message(Arrays.copyOf(request, request.length - 3)));

        assertFault(channel.next(), StatusCodes.BadDecodingError, 31);
    }

    @Test
    void a_string_over_the_decoding_limit_gets_encoding_limits_exceeded() {
        dispatcher = ServiceDispatcher.builder()
                .encodingLimits(new EncodingLimits(16, 1024, 16, 10))
                .registerSync(GetEndpointsRequest.class, (ch, r) -> null)
                .build();

        dispatcher.onRequest(channel, 5, message(getEndpoints(31)));

        assertFault(channel.next(), StatusCodes.BadEncodingLimitsExceeded, 31);
    }

    @Test
    void unreadable_bytes_get_decoding_error_with_handle_zero() {
        dispatcher = ServiceDispatcher.builder().build();

        dispatcher.onRequest(channel, 5, message(Hex.bytes("FF 01")));

        assertFault(channel.next(), StatusCodes.BadDecodingError, 0);
    }

    @Test
    void a_handler_that_throws_a_ua_exception_gets_its_status() {
        dispatcher = ServiceDispatcher.builder().registerSync(GetEndpointsRequest.class, (ch, r) -> {
            throw new UaException(StatusCodes.BadTooManyOperations, "too many");
        }).build();

        dispatcher.onRequest(channel, 5, message(getEndpoints(31)));

        assertFault(channel.next(), StatusCodes.BadTooManyOperations, 31);
    }

    @Test
    void a_handler_that_fails_unexpectedly_gets_internal_error() {
        dispatcher = ServiceDispatcher.builder()
                .registerSync(GetEndpointsRequest.class, (ch, r) -> {
                    throw new IllegalStateException("bug");
                })
                .register(FindServersRequest.class,
                        (ch, r) -> CompletableFuture.failedFuture(new UaException(StatusCodes.BadTimeout, "slow")))
                .build();

        dispatcher.onRequest(channel, 5, message(getEndpoints(31)));
        assertFault(channel.next(), StatusCodes.BadInternalError, 31);

        dispatcher.onRequest(channel, 6, message(findServers(32)));
        assertFault(channel.next(), StatusCodes.BadTimeout, 32);
    }

    @Test
    void a_request_beyond_the_queue_is_answered_at_once_with_server_too_busy() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<Long> handled = new CopyOnWriteArrayList<>();
        dispatcher = ServiceDispatcher.builder().minThreads(1).maxThreads(1).maxQueued(1)
                .registerSync(ReadRequest.class, (ch, request) -> {
                    handled.add(request.requestHeader().requestHandle());
                    started.countDown();
                    waitFor(release);
                    return readResponse(request);
                })
                .build();

        dispatcher.onRequest(channel, 1, message(read(1)));
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
        dispatcher.onRequest(channel, 2, message(read(2)));
        dispatcher.onRequest(channel, 3, message(read(3)));

        RecordingChannel.Answer refused = channel.next();
        assertThat(refused.requestId()).isEqualTo(3);
        assertThat(refused.thread()).as("answered on the submitting thread")
                .isEqualTo(Thread.currentThread().getName());
        assertFault(refused, StatusCodes.BadServerTooBusy, 3);
        assertThat(dispatcher.rejectedRequests()).isEqualTo(1);
        assertThat(dispatcher.statistics().rejected(RejectReason.TOO_BUSY)).isEqualTo(1);
        release.countDown();
        assertThat(channel.next().requestId()).isEqualTo(1);
        assertThat(channel.next().requestId()).isEqualTo(2);
        assertThat(handled).as("the refused request never reached a handler").containsExactly(1L, 2L);
    }

    @Test
    void a_session_with_one_request_is_served_among_the_first_behind_another_sessions_hundred() {
        Gate gate = new Gate();
        dispatcher = ServiceDispatcher.builder().minThreads(1).maxThreads(1)
                .registerSync(ReadRequest.class, (ch, request) -> {
                    gate.pass();
                    return readResponse(request);
                })
                .build();
        NodeId greedy = NodeId.opaque(1, ByteString.of(new byte[] {1, 2, 3}));
        NodeId modest = NodeId.opaque(1, ByteString.of(new byte[] {4, 5, 6}));

        dispatcher.onRequest(channel, 1, message(read(1, greedy, 0)));
        gate.awaitArrival();
        for (int i = 2; i <= 100; i++) {
            dispatcher.onRequest(channel, i, message(read(i, greedy, 0)));
        }
        dispatcher.onRequest(channel, 101, message(read(101, modest, 0)));
        gate.open();

        List<Long> order = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            order.add(channel.next().requestId());
        }
        assertThat(order.indexOf(101L)).as("position of the modest session's request").isLessThanOrEqualTo(2);
    }

    @Test
    void close_session_overtakes_a_flood_of_reads() {
        Gate gate = new Gate();
        dispatcher = ServiceDispatcher.builder().minThreads(1).maxThreads(1)
                .registerSync(ReadRequest.class, (ch, request) -> {
                    gate.pass();
                    return readResponse(request);
                })
                .registerSync(CloseSessionRequest.class, (ch, request) -> new CloseSessionResponse(
                        ResponseHeaders.good(request.requestHeader().requestHandle())))
                .build();
        NodeId session = NodeId.opaque(1, ByteString.of(new byte[] {7}));

        dispatcher.onRequest(channel, 1, message(read(1, session, 0)));
        gate.awaitArrival();
        for (int i = 2; i <= 50; i++) {
            dispatcher.onRequest(channel, i, message(read(i, session, 0)));
        }
        dispatcher.onRequest(channel, 99, message(new CloseSessionRequest(header(99, session, 0), true)));
        gate.open();

        assertThat(channel.next().requestId()).isEqualTo(1);
        RecordingChannel.Answer second = channel.next();
        assertThat(second.requestId()).isEqualTo(99);
        assertThat(second.message()).isInstanceOf(CloseSessionResponse.class);
    }

    @Test
    void publish_is_answered_with_service_unsupported_at_admission_without_queuing() {
        dispatcher = ServiceDispatcher.builder().build();

        dispatcher.onRequest(channel, 5, message(new PublishRequest(TestChunks.requestHeader(31), null)));

        RecordingChannel.Answer answer = channel.next();
        assertFault(answer, StatusCodes.BadServiceUnsupported, 31);
        assertThat(answer.thread()).isEqualTo(Thread.currentThread().getName());
        assertThat(dispatcher.statistics().admitted()).isZero();
    }

    @Test
    void publish_goes_to_the_publish_parking_when_one_is_set() {
        List<Long> parked = new ArrayList<>();
        dispatcher = ServiceDispatcher.builder()
                .publishParking((ch, requestId, message) -> {
                    parked.add(requestId);
                    message.release();
                })
                .build();

        dispatcher.onRequest(channel, 5, message(new PublishRequest(TestChunks.requestHeader(31), null)));

        assertThat(parked).containsExactly(5L);
        assertThat(dispatcher.statistics().admitted()).isZero();
    }

    @Test
    void a_request_whose_timeout_hint_passed_in_the_queue_gets_bad_timeout_without_running() {
        Gate gate = new Gate();
        List<Long> handled = new CopyOnWriteArrayList<>();
        dispatcher = ServiceDispatcher.builder().minThreads(1).maxThreads(1)
                .registerSync(ReadRequest.class, (ch, request) -> {
                    handled.add(request.requestHeader().requestHandle());
                    gate.pass();
                    return readResponse(request);
                })
                .build();

        dispatcher.onRequest(channel, 1, message(read(1)));
        gate.awaitArrival();
        dispatcher.onRequest(channel, 2, message(read(2, NodeId.NULL, 30)));
        sleep(80); // the scenario: request 2 waits in the queue past its 30 ms timeout hint
        gate.open();

        assertThat(channel.next().requestId()).isEqualTo(1);
        assertFault(channel.next(), StatusCodes.BadTimeout, 2);
        assertThat(handled).containsExactly(1L);
        assertThat(dispatcher.statistics().rejected(RejectReason.TIMEOUT)).isEqualTo(1);
    }

    @Test
    void a_request_older_than_max_request_age_gets_bad_timeout_without_running() {
        Gate gate = new Gate();
        dispatcher = ServiceDispatcher.builder().minThreads(1).maxThreads(1).maxRequestAge(Duration.ofMillis(30))
                .registerSync(ReadRequest.class, (ch, request) -> {
                    gate.pass();
                    return readResponse(request);
                })
                .build();

        dispatcher.onRequest(channel, 1, message(read(1)));
        gate.awaitArrival();
        dispatcher.onRequest(channel, 2, message(read(2)));
        sleep(80); // the scenario: request 2 waits in the queue past the 30 ms max request age
        gate.open();

        assertThat(channel.next().requestId()).isEqualTo(1);
        assertFault(channel.next(), StatusCodes.BadTimeout, 2);
        assertThat(dispatcher.statistics().rejected(RejectReason.TOO_OLD)).isEqualTo(1);
    }

    @Test
    void close_answers_queued_requests_with_server_halted_and_lets_the_running_one_finish() {
        Gate gate = new Gate();
        dispatcher = ServiceDispatcher.builder().minThreads(1).maxThreads(1)
                .registerSync(ReadRequest.class, (ch, request) -> {
                    gate.pass();
                    return readResponse(request);
                })
                .build();
        dispatcher.onRequest(channel, 1, message(read(1)));
        gate.awaitArrival();
        dispatcher.onRequest(channel, 2, message(read(2)));
        dispatcher.onRequest(channel, 3, message(read(3)));
        Thread opener = new Thread(() -> {
            sleep(100); // the scenario: the running request finishes while close() waits for it
            gate.open();
        }, "test-gate-opener");
        opener.start();

        dispatcher.close();

        List<RecordingChannel.Answer> answers = List.of(channel.next(), channel.next(), channel.next());
        assertThat(answers).filteredOn(a -> a.message() instanceof ServiceFault).hasSize(2)
                .allSatisfy(a -> assertThat(((ServiceFault) a.message()).responseHeader().serviceResult())
                        .isEqualTo(StatusCode.of(StatusCodes.BadServerHalted)))
                .extracting(RecordingChannel.Answer::requestId).containsExactlyInAnyOrder(2L, 3L);
        assertThat(answers).filteredOn(a -> a.message() instanceof ReadResponse).singleElement()
                .extracting(RecordingChannel.Answer::requestId).isEqualTo(1L);
    }

    @Test
    void close_waits_for_an_asynchronous_handler_to_answer() {
        CompletableFuture<UaStructure> later = new CompletableFuture<>();
        dispatcher = ServiceDispatcher.builder().register(ReadRequest.class, (ch, request) -> later).build();
        dispatcher.onRequest(channel, 1, message(read(1)));
        await().atMost(WAIT).pollInterval(POLL).until(() -> dispatcher.statistics().activeRequests() == 1);
        CompletableFuture.delayedExecutor(100, TimeUnit.MILLISECONDS)
                .execute(() -> later.complete(readResponse(read(1))));

        dispatcher.close();

        assertThat(dispatcher.statistics().activeRequests()).isZero();
        assertThat(channel.next().message()).isInstanceOf(ReadResponse.class);
    }

    @Test
    void statistics_count_each_service_with_its_faults_and_latency() {
        dispatcher = ServiceDispatcher.builder()
                .registerSync(ReadRequest.class, (ch, request) -> {
                    if (request.requestHeader().requestHandle() == 3) {
                        throw new UaException(StatusCodes.BadTooManyOperations, "too many");
                    }
                    sleep(5); // a handler that takes time, so that its latency is measurable
                    return readResponse(request);
                })
                .build();

        for (int i = 1; i <= 3; i++) {
            dispatcher.onRequest(channel, i, message(read(i)));
            channel.next();
        }
        dispatcher.onRequest(channel, 4, message(findServers(4)));
        channel.next();
        dispatcher.onRequest(channel, 5, message(Hex.bytes("FF 01")));
        channel.next();
        // A request is counted once its answer is sent: the last count may follow the answer.
        await().atMost(WAIT).pollInterval(POLL).until(() -> dispatcher.statistics().activeRequests() == 0);

        RequestStatistics.Snapshot snapshot = dispatcher.statistics().snapshot();
        assertThat(snapshot.services()).containsOnlyKeys("ReadRequest", "FindServersRequest",
                RequestStatistics.UNDECODABLE);
        RequestStatistics.ServiceSnapshot reads = snapshot.services().get("ReadRequest");
        assertThat(reads.count()).isEqualTo(3);
        assertThat(reads.faults()).isEqualTo(1);
        assertThat(reads.maxNanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(5));
        assertThat(reads.totalNanos()).isGreaterThanOrEqualTo(2 * TimeUnit.MILLISECONDS.toNanos(5));
        assertThat(snapshot.services().get("FindServersRequest").faults()).as("no handler").isEqualTo(1);
        assertThat(snapshot.admitted()).isEqualTo(5);
        assertThat(snapshot.queueWaitCount()).isEqualTo(5);
        assertThat(snapshot.activeRequests()).isZero();
        assertThat(snapshot.queueCapacity()).isEqualTo(200);
    }

    @Test
    void the_builder_refuses_inconsistent_limits() {
        assertThatThrownBy(() -> ServiceDispatcher.builder().minThreads(5).maxThreads(2).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ServiceDispatcher.builder().maxQueued(0).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ServiceDispatcher.builder().maxRequestAge(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a_request_after_close_is_answered_with_server_halted() {
        dispatcher = ServiceDispatcher.builder().build();
        dispatcher.close();

        dispatcher.onRequest(channel, 5, message(getEndpoints(31)));

        assertFault(channel.next(), StatusCodes.BadServerHalted, 31);
    }

    // ---- inline when idle (RequestPoolSettings.inlineWhenIdle)

    @Test
    void a_declared_request_runs_on_the_receiving_thread_when_nothing_waits() {
        dispatcher = ServiceDispatcher.builder()
                .registerSync(ReadRequest.class, (ch, request) -> readResponse(request))
                .runOnEventLoopWhenIdle(ReadRequest.class, () -> true)
                .build();

        dispatcher.onRequest(channel, 5, message(read(77)));

        RecordingChannel.Answer answer = channel.next();
        assertThat(answer.thread()).as("answered by the thread that received it")
                .isEqualTo(Thread.currentThread().getName());
        assertThat(((ReadResponse) answer.message()).responseHeader().requestHandle()).isEqualTo(77);
        RequestStatistics.Snapshot snapshot = dispatcher.statistics().snapshot();
        assertThat(snapshot.admitted()).isEqualTo(1);
        assertThat(snapshot.ranInline()).isEqualTo(1);
        assertThat(snapshot.queueWaitCount()).as("it never waited in the queue").isZero();
        assertThat(snapshot.services().get("ReadRequest").count()).isEqualTo(1);
        assertThat(snapshot.activeRequests()).isZero();
    }

    // ---- the flood bound per socket read (RequestPoolSettings.maxRequestsPerRead)

    @Test
    void a_burst_that_fits_one_read_is_served_whole_but_a_second_full_read_in_a_row_is_refused_beyond_the_bound() {
        dispatcher = ServiceDispatcher.builder()
                .settings(RequestPoolSettings.DEFAULT.withMaxRequestsPerRead(4))
                .registerSync(ReadRequest.class, (ch, request) -> readResponse(request))
                .runOnEventLoopWhenIdle(ReadRequest.class, () -> true)
                .build();

        // one read of 6 requests: a burst, served whole
        oneSocketRead(1, 6);
        for (int i = 1; i <= 6; i++) {
            assertThat(channel.next().message()).isInstanceOf(ReadResponse.class);
        }
        // the next read brings more than the bound again: a connection sending more than the server reads
        oneSocketRead(7, 6);
        for (int i = 7; i <= 10; i++) {
            assertThat(channel.next().message()).as("within the bound").isInstanceOf(ReadResponse.class);
        }
        assertFault(channel.next(), StatusCodes.BadServerTooBusy, 11);
        assertFault(channel.next(), StatusCodes.BadServerTooBusy, 12);
        assertThat(dispatcher.statistics().rejected(RejectReason.TOO_BUSY)).as("counted as refused").isEqualTo(2);
        // a read within the bound ends the flood: the read after it is served whole again
        oneSocketRead(13, 3);
        oneSocketRead(16, 6);
        for (int i = 13; i <= 21; i++) {
            assertThat(channel.next().message()).isInstanceOf(ReadResponse.class);
        }
        assertThat(dispatcher.statistics().rejected(RejectReason.TOO_BUSY)).isEqualTo(2);
    }

    @Test
    void a_bound_of_zero_refuses_nothing() {
        dispatcher = ServiceDispatcher.builder()
                .settings(RequestPoolSettings.DEFAULT.withMaxRequestsPerRead(0))
                .registerSync(ReadRequest.class, (ch, request) -> readResponse(request))
                .runOnEventLoopWhenIdle(ReadRequest.class, () -> true)
                .build();

        oneSocketRead(1, 10);
        oneSocketRead(11, 10);

        for (int i = 1; i <= 20; i++) {
            assertThat(channel.next().message()).isInstanceOf(ReadResponse.class);
        }
        assertThat(dispatcher.statistics().rejected(RejectReason.TOO_BUSY)).isZero();
    }

    /** One socket read that brought {@code count} Reads, handles from {@code firstHandle}. */
    private void oneSocketRead(long firstHandle, int count) {
        for (int i = 0; i < count; i++) {
            dispatcher.onRequest(channel, firstHandle + i, message(read(firstHandle + i)));
        }
        dispatcher.onReadComplete(channel);
    }

    @ParameterizedTest(name = "inline-when-idle {0}, condition {1}")
    @CsvSource({"false, true", "true, false"})
    void a_declared_request_runs_on_a_worker_when_inline_is_off_or_its_condition_fails(boolean inlineWhenIdle, boolean condition) {
        dispatcher = ServiceDispatcher.builder().inlineWhenIdle(inlineWhenIdle)
                .registerSync(ReadRequest.class, (ch, request) -> readResponse(request))
                .runOnEventLoopWhenIdle(ReadRequest.class, () -> condition)
                .build();

        dispatcher.onRequest(channel, 5, message(read(77)));

        assertThat(channel.next().thread()).startsWith("opcua-worker-");
        assertThat(dispatcher.statistics().ranInline()).isZero();
    }

    @Test
    void an_undeclared_request_runs_on_a_worker_beside_a_declared_one() {
        dispatcher = ServiceDispatcher.builder()
                .registerSync(ReadRequest.class, (ch, request) -> readResponse(request))
                .registerSync(GetEndpointsRequest.class, (ch, request) -> new GetEndpointsResponse(
                        ResponseHeaders.good(request.requestHeader().requestHandle()), new EndpointDescription[0]))
                .runOnEventLoopWhenIdle(ReadRequest.class, () -> true)
                .build();

        dispatcher.onRequest(channel, 5, message(getEndpoints(77)));

        assertThat(channel.next().thread()).startsWith("opcua-worker-");
    }

    @Test
    void a_declared_request_runs_inline_beside_a_busy_worker_but_queues_behind_a_waiting_request() {
        Gate gate = new Gate();
        dispatcher = ServiceDispatcher.builder().minThreads(1).maxThreads(1)
                .registerSync(GetEndpointsRequest.class, (ch, request) -> {
                    gate.pass();
                    return new GetEndpointsResponse(ResponseHeaders.good(request.requestHeader().requestHandle()),
                            new EndpointDescription[0]);
                })
                .registerSync(ReadRequest.class, (ch, request) -> readResponse(request))
                .runOnEventLoopWhenIdle(ReadRequest.class, () -> true)
                .build();
        String receiver = Thread.currentThread().getName();

        dispatcher.onRequest(channel, 1, message(getEndpoints(1)));
        gate.awaitArrival(); // the only worker is busy, nothing waits
        dispatcher.onRequest(channel, 2, message(read(2)));
        RecordingChannel.Answer inline = channel.next();
        assertThat(inline.requestId()).isEqualTo(2);
        assertThat(inline.thread()).as("nothing waited: run at once").isEqualTo(receiver);

        dispatcher.onRequest(channel, 3, message(getEndpoints(3))); // waits for the busy worker
        assertThat(dispatcher.queuedRequests()).isEqualTo(1);
        dispatcher.onRequest(channel, 4, message(read(4)));
        assertThat(dispatcher.queuedRequests()).as("the Read queued behind the waiting request").isEqualTo(2);
        gate.open();

        List<Long> order = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            RecordingChannel.Answer answer = channel.next();
            order.add(answer.requestId());
            assertThat(answer.thread()).startsWith("opcua-worker-");
        }
        assertThat(order).containsExactly(1L, 3L, 4L);
        assertThat(dispatcher.statistics().ranInline()).isEqualTo(1);
        assertThat(dispatcher.statistics().admitted()).isEqualTo(4);
    }

    @Test
    void a_declared_request_over_the_size_bound_runs_on_a_worker() {
        dispatcher = ServiceDispatcher.builder()
                .registerSync(ReadRequest.class, (ch, request) -> readResponse(request))
                .runOnEventLoopWhenIdle(ReadRequest.class, () -> true)
                .build();
        ReadValueId[] items = new ReadValueId[2_000];
        Arrays.fill(items, new ReadValueId(NodeId.numeric(0, 2258), 13, null, QualifiedName.NULL));
        byte[] large = TestChunks.encodeMessage(new ReadRequest(header(9, NodeId.NULL, 0), 0,
                TimestampsToReturn.Neither, items));
        assertThat(large.length).isGreaterThan(ServiceDispatcher.INLINE_MAX_REQUEST_BYTES);

        dispatcher.onRequest(channel, 5, message(large));

        RecordingChannel.Answer answer = channel.next();
        assertThat(answer.message()).isInstanceOf(ReadResponse.class);
        assertThat(answer.thread()).startsWith("opcua-worker-");
        assertThat(dispatcher.statistics().ranInline()).isZero();
    }

    @Test
    void a_declared_request_after_close_is_answered_with_server_halted() {
        dispatcher = ServiceDispatcher.builder()
                .registerSync(ReadRequest.class, (ch, request) -> readResponse(request))
                .runOnEventLoopWhenIdle(ReadRequest.class, () -> true)
                .build();
        dispatcher.close();

        dispatcher.onRequest(channel, 5, message(read(31)));

        assertFault(channel.next(), StatusCodes.BadServerHalted, 31);
        assertThat(dispatcher.statistics().ranInline()).isZero();
    }

    @Test
    void declaring_a_type_without_a_codec_is_refused_with_its_name() {
        assertThatThrownBy(() -> ServiceDispatcher.builder()
                .codecRegistry(dev.opcua.stack.core.encoding.CodecRegistry.builder().build())
                .runOnEventLoopWhenIdle(ReadRequest.class, () -> true)
                .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ReadRequest");
    }

    private static void assertFault(RecordingChannel.Answer answer, int status, long requestHandle) {
        assertThat(answer.message()).isInstanceOf(ServiceFault.class);
        ServiceFault fault = (ServiceFault) answer.message();
        assertThat(fault.responseHeader().serviceResult()).isEqualTo(StatusCode.of(status));
        assertThat(fault.responseHeader().requestHandle()).isEqualTo(requestHandle);
    }

    private ByteBuf message(UaStructure request) {
        return message(TestChunks.encodeMessage(request));
    }

    private ByteBuf message(byte[] bytes) {
        ByteBuf message = Unpooled.copiedBuffer(bytes);
        messages.add(message);
        return message;
    }

    private static GetEndpointsRequest getEndpoints(long requestHandle) {
        return new GetEndpointsRequest(TestChunks.requestHeader(requestHandle), "opc.tcp://localhost:4840/", null,
                null);
    }

    private static ReadRequest read(long requestHandle) {
        return read(requestHandle, NodeId.NULL, 10_000);
    }

    private static ReadRequest read(long requestHandle, NodeId authenticationToken, long timeoutHint) {
        return new ReadRequest(header(requestHandle, authenticationToken, timeoutHint), 0, TimestampsToReturn.Neither,
                new ReadValueId[] {new ReadValueId(NodeId.numeric(0, 2258), 13, null, QualifiedName.NULL)});
    }

    private static ReadResponse readResponse(ReadRequest request) {
        return new ReadResponse(ResponseHeaders.good(request.requestHeader().requestHandle()), new DataValue[0], null);
    }

    private static RequestHeader header(long requestHandle, NodeId authenticationToken, long timeoutHint) {
        return new RequestHeader(authenticationToken, DateTime.now(), requestHandle, 0, null, timeoutHint,
                ExtensionObject.NULL);
    }

    private static FindServersRequest findServers(long requestHandle) {
        return new FindServersRequest(TestChunks.requestHeader(requestHandle), "opc.tcp://localhost:4840/", null,
                null);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Holds the first handler call until opened; later calls pass. */
    private static final class Gate {
        private final CountDownLatch arrived = new CountDownLatch(1);
        private final CountDownLatch opened = new CountDownLatch(1);

        void pass() {
            arrived.countDown();
            waitFor(opened);
        }

        void awaitArrival() {
            waitFor(arrived);
        }

        void open() {
            opened.countDown();
        }
    }

    private static void waitFor(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
