package dev.opcua.stack.core.transport.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Framing of the UA TCP stream by the common 8-byte header (Part 6, 7.1.2.2). */
class UaTcpFrameDecoderTest {

    // Hello of Part 6, Table 72: 56 bytes
    private static final byte[] HEL = hex("48454C46 38000000 00000000 FFFF0000 00200000 00002000 40000000"
            + " 18000000 6F70632E7463703A2F2F6C6F63616C686F73743A34383430");
    // Acknowledge of Part 6, Table 73: 28 bytes
    private static final byte[] ACK = hex("41434B46 1C000000 00000000 00200000 FFFF0000 00002000 22000000");
    // Intermediate MSG chunk (Part 6, 6.7.2.2): header, SecureChannelId 5, 12 arbitrary bytes
    private static final byte[] MSG_C = hex("4D534743 18000000 05000000 0102030405060708090A0B0C");
    // Abort chunk: header, SecureChannelId 5, Error Bad_TcpMessageTooLarge, null Reason
    private static final byte[] MSG_A = hex("4D534741 14000000 05000000 00008080 FFFFFFFF");

    private final List<ByteBuf> inputs = new ArrayList<>();
    private final EmbeddedChannel channel = new EmbeddedChannel(new UaTcpFrameDecoder(8192));

    @AfterEach
    void nothingLeaks() {
        channel.finishAndReleaseAll();
        for (ByteBuf input : inputs) {
            assertThat(input.refCnt()).as("input released").isZero();
        }
    }

    @Test
    void whole_frames_are_emitted_as_they_came() {
        for (byte[] frame : List.of(HEL, ACK, MSG_C, MSG_A)) {
            channel.writeInbound(input(frame));
            assertThat(readFrame()).isEqualTo(frame);
            assertThat((Object) channel.readInbound()).isNull();
        }
    }

    @Test
    void a_read_of_exactly_one_frame_is_passed_on_itself_and_any_other_as_a_slice() {
        ByteBuf whole = input(MSG_A);
        channel.writeInbound(whole);
        ByteBuf frame = channel.readInbound();
        assertThat(frame).as("no slice of a read that is one frame").isSameAs(whole);
        frame.release();

        ByteBuf two = input(concat(MSG_A, MSG_A));
        channel.writeInbound(two);
        ByteBuf first = channel.readInbound();
        ByteBuf second = channel.readInbound();
        assertThat(first).isNotSameAs(two);
        assertThat(ByteBufUtil.getBytes(first)).isEqualTo(MSG_A);
        assertThat(ByteBufUtil.getBytes(second)).isEqualTo(MSG_A);
        first.release();
        second.release();

        // the rest of a frame begun in an earlier read is never taken for a whole frame of its own
        channel.writeInbound(input(MSG_C, 0, 4));
        channel.writeInbound(input(MSG_C, 4, MSG_C.length - 4));
        assertThat(readFrame()).isEqualTo(MSG_C);
    }

    @Test
    void a_lending_decoder_passes_the_receive_buffer_narrowed_to_each_frame_for_the_length_of_channel_read() {
        List<byte[]> frames = new ArrayList<>();
        List<ByteBuf> buffers = new ArrayList<>();
        EmbeddedChannel lending = new EmbeddedChannel(new UaTcpFrameDecoder(8192, true),
                new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ByteBuf frame = (ByteBuf) msg;
                        buffers.add(frame);
                        frames.add(ByteBufUtil.getBytes(frame));
                        frame.release();
                    }
                });
        ByteBuf three = input(concat(ACK, MSG_C, MSG_A));
        lending.writeInbound(three);
        assertThat(buffers).as("no slices").containsOnly(three);
        // the second read completes a frame begun in the first, and holds one more
        byte[] stream = concat(HEL, MSG_C);
        lending.writeInbound(input(stream, 0, 10));
        lending.writeInbound(input(stream, 10, stream.length - 10));
        assertThat(frames).containsExactly(ACK, MSG_C, MSG_A, HEL, MSG_C);
        assertThat(lending.finishAndReleaseAll()).isFalse();
    }

    @Test
    void with_auto_read_off_a_lending_decoder_asks_for_another_read_only_while_a_frame_is_incomplete() {
        int[] readsAsked = {0};
        List<byte[]> frames = new ArrayList<>();
        EmbeddedChannel lending = new EmbeddedChannel(new ChannelOutboundHandlerAdapter() {
            @Override
            public void read(ChannelHandlerContext ctx) {
                readsAsked[0]++;
                ctx.read();
            }
        }, new UaTcpFrameDecoder(8192, true), new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ByteBuf frame = (ByteBuf) msg;
                frames.add(ByteBufUtil.getBytes(frame));
                frame.release();
            }
        });
        lending.config().setAutoRead(false); // the handler has stopped reading: back-pressure
        readsAsked[0] = 0;

        lending.writeInbound(input(MSG_C, 0, 10));
        assertThat(readsAsked[0]).as("a partial frame asks for the rest").isEqualTo(1);
        lending.writeInbound(input(concat(MSG_C, MSG_A), 10, MSG_C.length + MSG_A.length - 10));
        assertThat(frames).containsExactly(MSG_C, MSG_A);
        assertThat(readsAsked[0]).as("frames were passed on: no further read is asked for").isEqualTo(1);
        lending.writeInbound(input(ACK));
        assertThat(readsAsked[0]).isEqualTo(1);
        assertThat(frames).containsExactly(MSG_C, MSG_A, ACK);
        assertThat(lending.finishAndReleaseAll()).isFalse();
    }

    @Test
    void frames_split_at_every_offset_are_reassembled() {
        for (byte[] frame : List.of(HEL, ACK, MSG_A)) {
            for (int cut = 1; cut < frame.length; cut++) {
                channel.writeInbound(input(frame, 0, cut));
                assertThat((Object) channel.readInbound()).as("nothing before the last byte, cut " + cut).isNull();
                channel.writeInbound(input(frame, cut, frame.length - cut));
                assertThat(readFrame()).as("cut " + cut).isEqualTo(frame);
            }
        }
    }

    @Test
    void frames_fed_byte_by_byte_are_reassembled() {
        byte[] stream = concat(HEL, MSG_C, MSG_A);
        for (int i = 0; i < stream.length; i++) {
            channel.writeInbound(input(stream, i, 1));
        }
        assertThat(readFrame()).isEqualTo(HEL);
        assertThat(readFrame()).isEqualTo(MSG_C);
        assertThat(readFrame()).isEqualTo(MSG_A);
        assertThat((Object) channel.readInbound()).isNull();
    }

    @Test
    void several_frames_in_one_buffer_are_separated() {
        byte[] stream = concat(ACK, MSG_C, MSG_C, MSG_A);
        // the second buffer completes the fourth frame and begins a fifth
        channel.writeInbound(input(stream, 0, stream.length - 3));
        channel.writeInbound(input(concat(new byte[] {stream[stream.length - 3], stream[stream.length - 2],
                stream[stream.length - 1]}, HEL)));
        for (byte[] expected : List.of(ACK, MSG_C, MSG_C, MSG_A, HEL)) {
            assertThat(readFrame()).isEqualTo(expected);
        }
        assertThat((Object) channel.readInbound()).isNull();
    }

    @Test
    void http_request_is_an_unknown_message_type() {
        UaException e = failure(input("GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII)));
        assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadTcpMessageTypeInvalid);
        assertThat(e).hasMessage("BadTcpMessageTypeInvalid (0x807E0000): unknown message type 'GET'");
    }

    @Test
    void unprintable_type_is_shown_in_hex() {
        // a TLS ClientHello record header, before the 8 header bytes are complete
        UaException e = failure(input(hex("16030100")));
        assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadTcpMessageTypeInvalid);
        assertThat(e).hasMessageEndingWith(": unknown message type 0x160301");
    }

    @Test
    void bad_chunk_type_is_refused() {
        UaException e = failure(input(hex("4D534758 18000000")));
        assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadTcpMessageTypeInvalid);
        assertThat(e).hasMessageEndingWith(": invalid chunk type 'X' in a 'MSG' header, expected 'F', 'C' or 'A'");
    }

    @Test
    void size_below_the_header_is_refused() {
        UaException e = failure(input(hex("48454C46 07000000")));
        assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadDecodingError);
        assertThat(e).hasMessageEndingWith(": message size 7 is smaller than the 8-byte header");
    }

    @Test
    void size_above_the_maximum_is_refused_before_the_body_arrives() {
        UaException e = failure(input(hex("4D534746 01200000")));
        assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadTcpMessageTooLarge);
        assertThat(e).hasMessageEndingWith(": message size 8193 exceeds the maximum of 8192 bytes");
    }

    @Test
    void size_is_read_as_unsigned() {
        UaException e = failure(input(hex("4D534746 FFFFFFFF")));
        assertThat(e).hasMessageEndingWith(": message size 4294967295 exceeds the maximum of 8192 bytes");
    }

    @Test
    void frame_of_exactly_the_maximum_is_accepted() {
        byte[] frame = chunk(8192);
        channel.writeInbound(input(frame));
        assertThat(readFrame()).isEqualTo(frame);
    }

    @Test
    void maximum_can_be_changed_after_negotiation() {
        UaTcpFrameDecoder decoder = channel.pipeline().get(UaTcpFrameDecoder.class);
        decoder.setMaxFrameSize(65_535);
        byte[] large = chunk(65_535);
        channel.writeInbound(input(large));
        assertThat(readFrame()).isEqualTo(large);
        assertThat(decoder.maxFrameSize()).isEqualTo(65_535);
        assertThatThrownBy(() -> decoder.setMaxFrameSize(7))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxFrameSize must be at least the 8-byte header, was 7");
    }

    @Test
    void after_an_error_nothing_more_is_emitted() {
        // a good frame, then garbage in the same buffer: the good one still comes out
        UaException e = failure(input(concat(ACK, hex("00000000 00000000"), HEL)));
        assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadTcpMessageTypeInvalid);
        assertThat(readFrame()).isEqualTo(ACK);
        assertThat((Object) channel.readInbound()).isNull();
        assertThat(channel.pipeline().get(UaTcpFrameDecoder.class).isFailed()).isTrue();

        channel.writeInbound(input(HEL));
        channel.writeInbound(input(concat(MSG_C, MSG_A)));
        assertThat((Object) channel.readInbound()).isNull();
        channel.checkException();
    }

    @Test
    void failure_in_the_middle_of_a_split_header_discards_the_rest() {
        byte[] tooLarge = hex("4D534743 00000100 05000000");
        channel.writeInbound(input(tooLarge, 0, 6));
        UaException e = failure(input(tooLarge, 6, tooLarge.length - 6));
        assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadTcpMessageTooLarge);
        channel.writeInbound(input(ACK));
        assertThat((Object) channel.readInbound()).isNull();
    }

    // ---- helpers -------------------------------------------------------------------------------

    /** A MSG final chunk of {@code size} bytes. */
    private static byte[] chunk(int size) {
        byte[] frame = new byte[size];
        Unpooled.wrappedBuffer(frame).setIntLE(0, 0x46_47_53_4D).setIntLE(4, size);
        return frame;
    }

    private byte[] readFrame() {
        ByteBuf frame = channel.readInbound();
        assertThat(frame).as("a frame").isNotNull();
        try {
            return ByteBufUtil.getBytes(frame);
        } finally {
            frame.release();
        }
    }

    /** Writes {@code in} and returns the status the decoder failed with, unwrapped from Netty's DecoderException. */
    private UaException failure(ByteBuf in) {
        Throwable thrown = catchThrowable(() -> channel.writeInbound(in));
        assertThat(thrown).isInstanceOf(DecoderException.class);
        assertThat(thrown.getCause()).isInstanceOf(UaException.class);
        return (UaException) thrown.getCause();
    }

    private ByteBuf input(byte[] bytes) {
        return input(bytes, 0, bytes.length);
    }

    private ByteBuf input(byte[] bytes, int offset, int length) {
        ByteBuf in = Unpooled.copiedBuffer(bytes, offset, length);
        inputs.add(in);
        return in;
    }

    private static byte[] concat(byte[]... parts) {
        ByteBuf all = Unpooled.buffer();
        try {
            for (byte[] part : parts) {
                all.writeBytes(part);
            }
            return ByteBufUtil.getBytes(all);
        } finally {
            all.release();
        }
    }

    private static byte[] hex(String text) {
        return HexFormat.of().parseHex(text.replace(" ", ""));
    }
}
