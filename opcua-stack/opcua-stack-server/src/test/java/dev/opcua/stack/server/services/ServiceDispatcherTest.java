package dev.opcua.stack.server.services;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.transport.uasc.ResponseHeaders;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.FindServersRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsResponse;
import dev.opcua.stack.core.types.structured.ServiceFault;
import dev.opcua.stack.server.testing.Hex;
import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.testing.RecordingChannel;
import dev.opcua.stack.server.testing.TestChunks;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Dispatch of encoded requests to handlers on worker threads, and the ServiceFaults of Part 4, 5.3. */
class ServiceDispatcherTest {

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
    void aRegisteredHandlerAnswersOnAWorkerThread() {
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
    void anAsynchronousHandlerIsAnsweredWhenItsFutureCompletes() {
        CompletableFuture<UaStructure> later = new CompletableFuture<>();
        dispatcher = ServiceDispatcher.builder().register(GetEndpointsRequest.class, (ch, request) -> later).build();

        dispatcher.onRequest(channel, 5, message(getEndpoints(77)));
        later.complete(new GetEndpointsResponse(ResponseHeaders.good(77), new EndpointDescription[0]));

        assertThat(channel.next().message()).isInstanceOf(GetEndpointsResponse.class);
    }

    @Test
    void aRequestWithoutHandlerGetsServiceUnsupportedWithItsHandle() {
        dispatcher = ServiceDispatcher.builder().build();

        dispatcher.onRequest(channel, 5, message(findServers(31)));

        assertFault(channel.next(), StatusCodes.BadServiceUnsupported, 31);
    }

    @Test
    void anUnknownEncodingIdGetsServiceUnsupported() {
        dispatcher = ServiceDispatcher.builder().build();
        byte[] request = TestChunks.encodeMessage(getEndpoints(31));
        request[2] = 0x0F; // encoding id i=0x01AC becomes i=0x0FAC, which no codec knows

        dispatcher.onRequest(channel, 5, message(request));

        assertFault(channel.next(), StatusCodes.BadServiceUnsupported, 31);
    }

    @Test
    void aTruncatedRequestGetsDecodingErrorWithItsHandle() {
        dispatcher = ServiceDispatcher.builder().registerSync(GetEndpointsRequest.class, (ch, r) -> null).build();
        byte[] request = TestChunks.encodeMessage(getEndpoints(31));

        dispatcher.onRequest(channel, 5, message(Arrays.copyOf(request, request.length - 3)));

        assertFault(channel.next(), StatusCodes.BadDecodingError, 31);
    }

    @Test
    void aStringOverTheDecodingLimitGetsEncodingLimitsExceeded() {
        dispatcher = ServiceDispatcher.builder()
                .encodingLimits(new EncodingLimits(16, 1024, 16, 10))
                .registerSync(GetEndpointsRequest.class, (ch, r) -> null)
                .build();

        dispatcher.onRequest(channel, 5, message(getEndpoints(31)));

        assertFault(channel.next(), StatusCodes.BadEncodingLimitsExceeded, 31);
    }

    @Test
    void unreadableBytesGetDecodingErrorWithHandleZero() {
        dispatcher = ServiceDispatcher.builder().build();

        dispatcher.onRequest(channel, 5, message(Hex.bytes("FF 01")));

        assertFault(channel.next(), StatusCodes.BadDecodingError, 0);
    }

    @Test
    void aHandlerThatThrowsAUaExceptionGetsItsStatus() {
        dispatcher = ServiceDispatcher.builder().registerSync(GetEndpointsRequest.class, (ch, r) -> {
            throw new UaException(StatusCodes.BadTooManyOperations, "too many");
        }).build();

        dispatcher.onRequest(channel, 5, message(getEndpoints(31)));

        assertFault(channel.next(), StatusCodes.BadTooManyOperations, 31);
    }

    @Test
    void aHandlerThatFailsUnexpectedlyGetsInternalError() {
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
    void aRequestBeyondTheQueueIsAnsweredAtOnceWithServerTooBusy() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        dispatcher = ServiceDispatcher.builder().minThreads(1).maxThreads(1).maxQueued(1)
                .registerSync(GetEndpointsRequest.class, (ch, request) -> {
                    started.countDown();
                    await(release);
                    return new GetEndpointsResponse(ResponseHeaders.good(request.requestHeader().requestHandle()),
                            new EndpointDescription[0]);
                })
                .build();

        dispatcher.onRequest(channel, 1, message(getEndpoints(1)));
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
        dispatcher.onRequest(channel, 2, message(getEndpoints(2)));
        dispatcher.onRequest(channel, 3, message(getEndpoints(3)));

        RecordingChannel.Answer refused = channel.next();
        assertThat(refused.requestId()).isEqualTo(3);
        assertFault(refused, StatusCodes.BadServerTooBusy, 3);
        assertThat(dispatcher.rejectedRequests()).isEqualTo(1);
        release.countDown();
        assertThat(channel.next().requestId()).isEqualTo(1);
        assertThat(channel.next().requestId()).isEqualTo(2);
    }

    @Test
    void aRequestAfterCloseIsAnsweredWithServerHalted() {
        dispatcher = ServiceDispatcher.builder().build();
        dispatcher.close();

        dispatcher.onRequest(channel, 5, message(getEndpoints(31)));

        assertFault(channel.next(), StatusCodes.BadServerHalted, 31);
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

    private static FindServersRequest findServers(long requestHandle) {
        return new FindServersRequest(TestChunks.requestHeader(requestHandle), "opc.tcp://localhost:4840/", null,
                null);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
