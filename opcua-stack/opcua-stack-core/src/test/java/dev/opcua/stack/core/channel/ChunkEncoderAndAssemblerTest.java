package dev.opcua.stack.core.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ChunkCrypto;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Chunking of outgoing messages and reassembly of incoming ones (Part 6, 6.7.2). */
class ChunkEncoderAndAssemblerTest {

    private final List<ByteBuf> owned = new ArrayList<>();

    @AfterEach
    void releaseBuffers() {
        for (ByteBuf b : owned) {
            if (b.refCnt() > 0) {
                b.release();
            }
        }
    }

    private ByteBuf own(ByteBuf b) {
        owned.add(b);
        return b;
    }

    private ByteBuf body(int size) {
        ByteBuf b = own(Unpooled.buffer(size));
        for (int i = 0; i < size; i++) {
            b.writeByte(i);
        }
        return b;
    }

    @Test
    void a_small_message_is_one_final_chunk_with_the_symmetric_headers() {
        ByteBuf out = own(Unpooled.buffer());
        new ChunkEncoder(8192, 0, 0, StatusCodes.BadResponseTooLarge)
                .encodeSymmetric(MessageType.MSG, 7, 3, 42, body(4), new SequenceNumbers(51), ChunkCrypto.NONE, out);
        // Part 6, 6.7.2.2 (message header), Table 58 (TokenId), 6.7.2.4 (sequence header), then the body.
        assertThat(ByteBufUtil.hexDump(out)).isEqualTo(
                "4d534746" + "1c000000" + "07000000" // "MSG" 'F', size 28, SecureChannelId 7
                        + "03000000" // TokenId 3
                        + "33000000" + "2a000000" // SequenceNumber 51, RequestId 42
                        + "00010203");
    }

    @Test
    void a_message_larger_than_a_chunk_is_split_with_consecutive_sequence_numbers() {
        ByteBuf out = own(Unpooled.buffer());
        int chunkSize = 8192;
        int maxBody = chunkSize - 24;
        new ChunkEncoder(chunkSize, 0, 0, StatusCodes.BadResponseTooLarge)
                .encodeSymmetric(MessageType.MSG, 1, 1, 9, body(maxBody * 2 + 10), new SequenceNumbers(), ChunkCrypto.NONE,
                        out);
        List<Integer> sizes = new ArrayList<>();
        List<Character> types = new ArrayList<>();
        List<Long> sequence = new ArrayList<>();
        while (out.isReadable()) {
            int start = out.readerIndex();
            types.add((char) out.getByte(start + 3));
            int size = out.getIntLE(start + 4);
            sizes.add(size);
            sequence.add(out.getUnsignedIntLE(start + 16));
            out.skipBytes(size);
        }
        assertThat(types).containsExactly('C', 'C', 'F');
        assertThat(sizes).containsExactly(chunkSize, chunkSize, 24 + 10);
        assertThat(sequence).containsExactly(1L, 2L, 3L);
    }

    @Test
    void a_message_over_the_peers_max_message_size_is_refused_before_anything_is_written() {
        ByteBuf out = own(Unpooled.buffer());
        ChunkEncoder encoder = new ChunkEncoder(8192, 1000, 0, StatusCodes.BadResponseTooLarge);
        assertThatThrownBy(() -> encoder.encodeSymmetric(MessageType.MSG, 1, 1, 1, body(1001), new SequenceNumbers(),
                ChunkCrypto.NONE, out))
                .isInstanceOf(UaException.class)
                .hasMessageContaining("BadResponseTooLarge").hasMessageContaining("MaxMessageSize 1000");
        assertThat(out.writerIndex()).isZero();
    }

    @Test
    void a_message_needing_more_chunks_than_the_peer_allows_is_refused() {
        ByteBuf out = own(Unpooled.buffer());
        ChunkEncoder encoder = new ChunkEncoder(8192, 0, 2, StatusCodes.BadRequestTooLarge);
        assertThatThrownBy(() -> encoder.encodeSymmetric(MessageType.MSG, 1, 1, 1, body(3 * 8192), new SequenceNumbers(),
                ChunkCrypto.NONE, out))
                .isInstanceOf(UaException.class)
                .hasMessageContaining("BadRequestTooLarge").hasMessageContaining("MaxChunkCount 2");
        assertThat(out.writerIndex()).isZero();
    }

    @Test
    void the_largest_body_is_the_smaller_of_the_peers_message_size_and_what_its_chunk_count_carries() {
        assertThat(new ChunkEncoder(8192, 0, 0, StatusCodes.BadResponseTooLarge).maxBodySize()).isZero();
        assertThat(new ChunkEncoder(8192, 1_000_000, 0, StatusCodes.BadResponseTooLarge).maxBodySize())
                .isEqualTo(1_000_000);
        ChunkEncoder byChunks = new ChunkEncoder(8192, 1_000_000, 2, StatusCodes.BadResponseTooLarge);
        assertThat(byChunks.maxBodySize()).isLessThan(2 * 8192);
        ByteBuf out = own(Unpooled.buffer());
        byChunks.encodeSymmetric(MessageType.MSG, 1, 1, 1, body((int) byChunks.maxBodySize()), new SequenceNumbers(),
                ChunkCrypto.NONE, out);
        assertThat(out.writerIndex()).isPositive();
    }

    @Test
    void an_opn_chunk_carries_the_none_policy_header() {
        ByteBuf out = own(Unpooled.buffer());
        new ChunkEncoder(8192, 0, 0, StatusCodes.BadResponseTooLarge)
                .encodeAsymmetric(0, AsymmetricSecurityHeader.NONE, 1, body(2), new SequenceNumbers(), ChunkCrypto.NONE, out);
        String uri = HexFormat.of().formatHex("http://opcfoundation.org/UA/SecurityPolicy#None".getBytes());
        // Part 6, 6.7.2.3 Table 57: policy URI, null certificate, null thumbprint; 79 bytes before the body.
        assertThat(ByteBufUtil.hexDump(out)).isEqualTo(
                "4f504e46" + "51000000" + "00000000" + "2f000000" + uri + "ffffffff" + "ffffffff"
                        + "01000000" + "01000000" + "0001");
    }

    @Test
    void an_abort_chunk_carries_the_error_and_reason() {
        ByteBuf out = own(Unpooled.buffer());
        new ChunkEncoder(8192, 0, 0, StatusCodes.BadResponseTooLarge)
                .encodeAbort(5, 6, 7, StatusCodes.BadResponseTooLarge, "too big", new SequenceNumbers(), ChunkCrypto.NONE,
                        out);
        assertThat((char) out.getByte(3)).isEqualTo('A');
        assertThat(out.getIntLE(24)).isEqualTo(StatusCodes.BadResponseTooLarge);
        assertThat(out.getIntLE(28)).isEqualTo(7);
        assertThat(out.toString(32, 7, java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("too big");
    }

    @Test
    void chunks_written_by_the_encoder_read_back_through_the_header_and_assembler() {
        ByteBuf out = own(PooledByteBufAllocator.DEFAULT.buffer());
        ByteBuf message = body(20_000);
        new ChunkEncoder(8192, 0, 0, StatusCodes.BadResponseTooLarge)
                .encodeSymmetric(MessageType.MSG, 11, 12, 13, message.duplicate(), new SequenceNumbers(), ChunkCrypto.NONE,
                        out);
        MessageAssembler assembler = new MessageAssembler(PooledByteBufAllocator.DEFAULT, 0, 0,
                StatusCodes.BadTcpMessageTooLarge);
        ChunkHeader header = new ChunkHeader();
        SequenceNumbers received = new SequenceNumbers();
        ByteBuf whole = null;
        while (out.isReadable()) {
            ByteBuf frame = out.readRetainedSlice(out.getIntLE(out.readerIndex() + 4));
            header.read(frame, token -> ChunkCrypto.NONE);
            assertThat(header.secureChannelId()).isEqualTo(11);
            assertThat(header.tokenId()).isEqualTo(12);
            assertThat(header.requestId()).isEqualTo(13);
            received.checkReceived(header.sequenceNumber());
            whole = assembler.add(header.chunkType(), header.requestId(), frame);
        }
        assertThat(whole).isNotNull();
        try {
            assertThat(ByteBufUtil.equals(whole, message)).isTrue();
        } finally {
            whole.release();
        }
        assertThat(out.refCnt()).isEqualTo(1);
    }

    @Test
    void the_assembler_refuses_a_message_over_its_limits_and_releases_the_parts() {
        MessageAssembler assembler = new MessageAssembler(PooledByteBufAllocator.DEFAULT, 100, 2,
                StatusCodes.BadTcpMessageTooLarge);
        ByteBuf first = PooledByteBufAllocator.DEFAULT.buffer().writeZero(60);
        ByteBuf second = PooledByteBufAllocator.DEFAULT.buffer().writeZero(60);
        assertThat(assembler.add(ChunkType.INTERMEDIATE, 1, first)).isNull();
        assertThatThrownBy(() -> assembler.add(ChunkType.FINAL, 1, second))
                .isInstanceOf(UaException.class).hasMessageContaining("MaxMessageSize 100");
        assertThat(first.refCnt()).isZero();
        assertThat(second.refCnt()).isZero();
        assertThat(assembler.inProgress()).isFalse();

        ByteBuf[] parts = new ByteBuf[3];
        for (int i = 0; i < 3; i++) {
            parts[i] = PooledByteBufAllocator.DEFAULT.buffer().writeZero(1);
        }
        assembler.add(ChunkType.INTERMEDIATE, 2, parts[0]);
        assembler.add(ChunkType.INTERMEDIATE, 2, parts[1]);
        assertThatThrownBy(() -> assembler.add(ChunkType.FINAL, 2, parts[2]))
                .isInstanceOf(UaException.class).hasMessageContaining("MaxChunkCount 2");
        assertThat(parts).allSatisfy(p -> assertThat(p.refCnt()).isZero());
    }

    @Test
    void an_abort_drops_the_partial_message_and_a_new_one_can_follow() {
        MessageAssembler assembler = new MessageAssembler(PooledByteBufAllocator.DEFAULT, 0, 0,
                StatusCodes.BadTcpMessageTooLarge);
        ByteBuf part = PooledByteBufAllocator.DEFAULT.buffer().writeZero(10);
        assembler.add(ChunkType.INTERMEDIATE, 4, part);
        assertThat(assembler.abort(4)).isTrue();
        assertThat(part.refCnt()).isZero();
        ByteBuf single = PooledByteBufAllocator.DEFAULT.buffer().writeZero(3);
        ByteBuf whole = assembler.add(ChunkType.FINAL, 5, single);
        assertThat(whole).isSameAs(single);
        whole.release();
    }

    @Test
    void chunks_of_another_request_before_the_final_chunk_are_refused() {
        MessageAssembler assembler = new MessageAssembler(PooledByteBufAllocator.DEFAULT, 0, 0,
                StatusCodes.BadTcpMessageTooLarge);
        ByteBuf first = PooledByteBufAllocator.DEFAULT.buffer().writeZero(10);
        ByteBuf other = PooledByteBufAllocator.DEFAULT.buffer().writeZero(10);
        assembler.add(ChunkType.INTERMEDIATE, 1, first);
        assertThatThrownBy(() -> assembler.add(ChunkType.FINAL, 2, other)).isInstanceOf(UaException.class)
                .hasMessageContaining("request 2").hasMessageContaining("request 1");
        assertThat(first.refCnt()).isZero();
        assertThat(other.refCnt()).isZero();
    }
}
