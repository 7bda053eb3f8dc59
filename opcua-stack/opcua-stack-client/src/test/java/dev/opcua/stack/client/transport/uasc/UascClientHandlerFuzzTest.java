package dev.opcua.stack.client.transport.uasc;

import static dev.opcua.stack.client.transport.uasc.GoldenFrames.abortBody;
import static dev.opcua.stack.client.transport.uasc.GoldenFrames.ack;
import static dev.opcua.stack.client.transport.uasc.GoldenFrames.err;
import static dev.opcua.stack.client.transport.uasc.GoldenFrames.getEndpointsResponse;
import static dev.opcua.stack.client.transport.uasc.GoldenFrames.msgChunk;
import static dev.opcua.stack.client.transport.uasc.GoldenFrames.opnResponse;
import static dev.opcua.stack.client.transport.uasc.GoldenFrames.opnServiceFault;
import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.opcua.stack.client.testing.LeakWatch;
import dev.opcua.stack.client.testing.ManualTimer;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.transport.tcp.UaTcpFrameDecoder;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsResponse;
import dev.opcua.stack.core.types.structured.RequestHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The client's secure-conversation handler ({@link UascClientHandler} behind UA TCP framing) in an
 * EmbeddedChannel, answered by a server the fuzzer plays: ACK, OPN responses and ServiceFaults, MSG
 * chunks (final, intermediate, abort) for the requests the client sent, ERR and raw bytes, with bytes
 * overwritten, each written in any number of pieces, interleaved with new requests and with time
 * moving on the handler's timer (request deadlines, handshake timeout, token renewal).
 *
 * <p>Whatever the server sends, every request future and the handshake must end (completed or failed)
 * once the channel is closed, nothing may reach the end of the pipeline as an exception, every input
 * buffer must be released and no ByteBuf may leak: the channel allocates from an instrumented unpooled
 * allocator of its own whose count of bytes still held must be zero after the close (exact, on the
 * input that leaks, and cheap enough to fuzz without Netty's paranoid detector; that detector still
 * watches the replay in the default build).
 */
class UascClientHandlerFuzzTest {

    private static final String URL = "opc.tcp://localhost:4840/test";
    private static final long CHANNEL_ID = 7;
    private static final long TOKEN_ID = 1;
    private static final TransportQuotas QUOTAS = TransportQuotas.builder().maxChunkCount(8).build();

    @BeforeAll
    static void watchLeaks() {
        LeakWatch.install();
    }

    @AfterAll
    static void nothingLeaked() {
        LeakWatch.assertNoLeaks();
    }

    @FuzzTest(maxDuration = "5m")
    void conversation(FuzzedDataProvider data) {
        LeakWatch.assertNoLeaksReported();
        ManualTimer timer = new ManualTimer();
        UascClientHandler handler = new UascClientHandler(URL, QUOTAS, timer, Runnable::run);
        UnpooledByteBufAllocator allocator = new UnpooledByteBufAllocator(false, false);
        EmbeddedChannel channel = EmbeddedChannel.builder()
                .handlers(new UaTcpFrameDecoder(UascClientHandler.HANDSHAKE_MAX_FRAME_SIZE), handler)
                .register(false)
                .build();
        channel.config().setAllocator(allocator); // before the handlers are added, at registration
        register(channel);
        List<CompletableFuture<?>> futures = new ArrayList<>();
        futures.add(handler.handshake());
        List<ByteBuf> inputs = new ArrayList<>();
        long serverSequence = 51;
        long lastRequestId = 1;
        try {
            for (int step = 0; step < 32 && data.remainingBytes() > 0 && channel.isOpen(); step++) {
                lastRequestId = drainOutbound(channel, lastRequestId);
                int op = data.consumeInt(0, 9);
                byte[] frame = switch (op) {
                    case 0 -> ack();
                    case 1 -> opnResponse(CHANNEL_ID, serverSequence++, 1, TOKEN_ID, data.consumeLong(0, 3_600_000));
                    case 2 -> opnServiceFault(serverSequence++, 1, data.consumeInt());
                    case 3 -> msgChunk('F', CHANNEL_ID, TOKEN_ID, serverSequence++, lastRequestId,
                            getEndpointsResponse(1));
                    case 4 -> msgChunk('C', CHANNEL_ID, TOKEN_ID, serverSequence++, lastRequestId,
                            Arrays.copyOf(getEndpointsResponse(1), data.consumeInt(0, 32)));
                    case 5 -> msgChunk('A', CHANNEL_ID, TOKEN_ID, serverSequence++, lastRequestId,
                            abortBody(data.consumeInt(), data.consumeString(40)));
                    case 6 -> err(data.consumeInt(), data.consumeString(40));
                    case 7 -> data.consumeBytes(data.consumeInt(0, 512));
                    default -> null;
                };
                if (op == 8) {
                    futures.add(handler.request(getEndpoints(), GetEndpointsResponse.class,
                            data.consumeLong(1, 100_000)));
                } else if (op == 9) {
                    timer.advance(data.consumeLong(0, 4_000_000));
                    channel.runPendingTasks();
                } else {
                    overwrite(frame, data);
                    feedInPieces(channel, allocator, inputs, frame, data);
                }
            }
        } finally {
            channel.close();
            drainOutbound(channel, lastRequestId);
            channel.finishAndReleaseAll(); // rethrows what reached the pipeline's end
            timer.stop();
        }
        for (ByteBuf input : inputs) {
            assertThat(input.refCnt()).as("input buffer released").isZero();
        }
        for (CompletableFuture<?> future : futures) {
            assertThat(future).as("request or handshake ended after the close").isDone();
        }
        assertThat(allocator.metric().usedHeapMemory() + allocator.metric().usedDirectMemory())
                .as("bytes of ByteBufs still held after the close (a leak)").isZero();
    }

    private static void register(EmbeddedChannel channel) {
        try {
            channel.register();
        } catch (Exception e) {
            throw new IllegalStateException("the embedded channel did not register", e);
        }
    }

    /** Releases what the client wrote; returns the RequestId of its last MSG (Part 6, 6.7.2.2), else {@code last}. */
    private static long drainOutbound(EmbeddedChannel channel, long last) {
        channel.runPendingTasks();
        for (ByteBuf out = channel.readOutbound(); out != null; out = channel.readOutbound()) {
            try {
                if (out.readableBytes() >= 24 && out.getByte(0) == 'M') {
                    last = out.getUnsignedIntLE(20);
                }
            } finally {
                out.release();
            }
        }
        return last;
    }

    private static void overwrite(byte[] frame, FuzzedDataProvider data) {
        int count = frame.length == 0 ? 0 : data.consumeInt(0, 3);
        for (int i = 0; i < count; i++) {
            frame[data.consumeInt(0, frame.length - 1)] = data.consumeByte();
        }
    }

    private static void feedInPieces(EmbeddedChannel channel, UnpooledByteBufAllocator allocator, List<ByteBuf> inputs,
            byte[] frame, FuzzedDataProvider data) {
        int offset = 0;
        while (offset < frame.length && channel.isOpen()) {
            int length = data.remainingBytes() == 0 ? frame.length - offset : data.consumeInt(1, frame.length - offset);
            ByteBuf input = allocator.heapBuffer(length).writeBytes(frame, offset, length);
            inputs.add(input);
            channel.writeInbound(input);
            channel.runPendingTasks();
            offset += length;
        }
    }

    private static GetEndpointsRequest getEndpoints() {
        RequestHeader header = new RequestHeader(NodeId.NULL, DateTime.now(), 1, 0, null, 0, ExtensionObject.NULL);
        return new GetEndpointsRequest(header, URL, null, null);
    }
}
