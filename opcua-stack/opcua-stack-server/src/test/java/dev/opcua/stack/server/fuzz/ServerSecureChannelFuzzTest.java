package dev.opcua.stack.server.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.server.transport.uasc.ServerChannelSettings;
import dev.opcua.stack.server.transport.uasc.ServerRequestListener;
import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.UaRequestMessage;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.server.testing.EmbeddedConnection;
import dev.opcua.stack.server.testing.GoldenFrames;
import dev.opcua.stack.server.testing.LeakWatch;
import io.netty.buffer.ByteBuf;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The server's secure-conversation pipeline (UA TCP framing, {@code UascServerHandler}) in an
 * EmbeddedChannel, fed a conversation the fuzzer composes: the golden HEL, OPN, MSG and CLO frames of
 * Part 6 (7.1.2, 6.7.2 to 6.7.4, 7.1.4), whole, as two MSG chunks, with fixed-up or broken sequence
 * numbers, with bytes overwritten, and raw bytes, each written in any number of pieces, in any order,
 * with the channel's clock moved between them (handshake and token timers).
 *
 * <p>Whatever the input, the handler must answer with ERR, a ServiceFault or a response and close
 * cleanly: an exception that reaches the end of the pipeline, an input buffer not released, a
 * channel, connection or channel id still counted after the close, or a ByteBuf leak (bytes still held
 * by the connection's own counting allocator after the close, see {@link EmbeddedConnection#finish()})
 * is a finding, on the input that caused it.
 */
class ServerSecureChannelFuzzTest {

    /** Small buffers and few chunks, so that the limits are reached by short inputs. */
    private static final TransportQuotas QUOTAS = TransportQuotas.builder()
            .maxBufferSize(8192).maxMessageSize(32 * 1024).maxChunkCount(8).build();

    private static final byte[][] FRAMES = {GoldenFrames.HEL, GoldenFrames.OPN_ISSUE,
            GoldenFrames.MSG_GET_ENDPOINTS, GoldenFrames.CLO};

    @BeforeAll
    static void watchLeaks() {
        LeakWatch.install();
    }

    @AfterAll
    static void nothingLeaked() throws InterruptedException {
        LeakWatch.assertNoLeaks();
    }

    @FuzzTest(maxDuration = "5m")
    void conversation(FuzzedDataProvider data) {
        LeakWatch.assertNoLeaksReported();
        ServerChannelSettings settings = EmbeddedConnection.settings(QUOTAS);
        EmbeddedConnection connection = new EmbeddedConnection(settings, new DecodingListener());
        long sequenceNumber = 2;
        try {
            for (int step = 0; step < 32 && data.remainingBytes() > 0 && connection.channel.isOpen(); step++) {
                int op = data.consumeInt(0, 7);
                byte[] frame = switch (op) {
                    case 0, 1, 2, 3 -> FRAMES[op].clone();
                    case 4 -> withSequenceNumber(GoldenFrames.MSG_GET_ENDPOINTS, sequenceNumber++);
                    case 5 -> twoChunks(GoldenFrames.MSG_GET_ENDPOINTS, sequenceNumber, data.consumeInt(1, 60));
                    case 6 -> data.consumeBytes(data.consumeInt(0, 512));
                    default -> null;
                };
                if (op == 5) {
                    sequenceNumber += 2;
                }
                if (frame == null) {
                    connection.advance(data.consumeLong(0, 4_000_000));
                } else {
                    overwrite(frame, data);
                    writeInPieces(connection, frame, data);
                }
                connection.readAll();
            }
        } finally {
            connection.readAll();
            connection.finish(); // rethrows what reached the pipeline's end; checks inputs were released
        }
        assertThat(settings.counters().openConnections()).as("open connections").isZero();
        assertThat(settings.counters().secureChannels()).as("secure channels").isZero();
        assertThat(settings.channelIds().liveCount()).as("live channel ids").isZero();
    }

    /** Overwrites up to three bytes at chosen offsets. */
    private static void overwrite(byte[] frame, FuzzedDataProvider data) {
        int count = frame.length == 0 ? 0 : data.consumeInt(0, 3);
        for (int i = 0; i < count; i++) {
            frame[data.consumeInt(0, frame.length - 1)] = data.consumeByte();
        }
    }

    private static void writeInPieces(EmbeddedConnection connection, byte[] frame, FuzzedDataProvider data) {
        int offset = 0;
        while (offset < frame.length && connection.channel.isOpen()) {
            int length = data.remainingBytes() == 0 ? frame.length - offset : data.consumeInt(1, frame.length - offset);
            connection.write(frame, offset, length);
            offset += length;
        }
    }

    /** A copy of a symmetric frame (Part 6, 6.7.2.2) with the SequenceNumber and RequestId replaced. */
    private static byte[] withSequenceNumber(byte[] frame, long sequenceNumber) {
        byte[] copy = frame.clone();
        putUInt32(copy, 16, sequenceNumber);
        putUInt32(copy, 20, sequenceNumber);
        return copy;
    }

    /** The body of a symmetric frame sent as an intermediate chunk 'C' and a final chunk 'F' (Part 6, 6.7.2.2). */
    private static byte[] twoChunks(byte[] frame, long sequenceNumber, int firstBodyLength) {
        int header = 24;
        int split = Math.min(header + firstBodyLength, frame.length);
        byte[] first = Arrays.copyOfRange(frame, 0, split);
        first[3] = 'C';
        putUInt32(first, 4, first.length);
        putUInt32(first, 16, sequenceNumber);
        byte[] second = new byte[header + frame.length - split];
        System.arraycopy(frame, 0, second, 0, header);
        System.arraycopy(frame, split, second, header, frame.length - split);
        putUInt32(second, 4, second.length);
        putUInt32(second, 16, sequenceNumber + 1);
        putUInt32(first, 20, sequenceNumber);
        putUInt32(second, 20, sequenceNumber);
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    private static void putUInt32(byte[] bytes, int offset, long value) {
        for (int i = 0; i < 4; i++) {
            bytes[offset + i] = (byte) (value >>> (8 * i));
        }
    }

    /**
     * Answers like the server's dispatcher does before a service runs: a request that does not decode
     * gets a ServiceFault with BadDecodingError (Part 4, 7.35), any other one BadServiceUnsupported.
     */
    private static final class DecodingListener implements ServerRequestListener {

        @Override
        public void onRequest(ServerSecureChannel channel, long requestId, ByteBuf message) {
            UaStructure request;
            try {
                request = new UaDecoder(CodecRegistry.standard(), EncodingLimits.DEFAULT, message).readMessage();
            } catch (UaEncodingException e) {
                channel.sendServiceFault(requestId, 0, StatusCodes.BadDecodingError);
                return;
            } finally {
                message.release();
            }
            long handle = request instanceof UaRequestMessage m ? m.requestHeader().requestHandle() : 0;
            channel.sendServiceFault(requestId, handle, StatusCodes.BadServiceUnsupported);
        }
    }
}
