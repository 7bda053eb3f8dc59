package dev.opcua.stack.core.encoding.binary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.NodeId;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A decoder with {@link UaDecoder#cacheNodeIds()} returns equal NodeIds, the same instance once seen twice. */
class NodeIdCacheTest {

    private static final List<NodeId> KINDS = List.of(NodeId.numeric(2, 7), NodeId.numeric(3, 70_000),
            NodeId.numeric(300, 5), NodeId.string(2, "Bench/v0001"), NodeId.guid(4, UUID.randomUUID()),
            NodeId.opaque(1, ByteString.wrap(new byte[32])), NodeId.ns0(85));

    private static ByteBuf encoded(List<NodeId> ids) {
        ByteBuf buf = Unpooled.buffer();
        UaEncoder encoder = new UaEncoder(CodecRegistry.standard(), buf);
        ids.forEach(id -> encoder.writeNodeId("Id", id));
        return buf;
    }

    private static List<NodeId> decode(UaDecoder decoder, ByteBuf buf, int count) {
        decoder.setBuffer(buf);
        List<NodeId> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(decoder.readNodeId("Id"));
        }
        assertThat(buf.isReadable()).as("every byte consumed").isFalse();
        return out;
    }

    @Test
    void every_kind_decodes_equal_and_the_third_sighting_is_the_same_instance() {
        UaDecoder decoder = new UaDecoder(CodecRegistry.standard(), EncodingLimits.DEFAULT).cacheNodeIds();
        List<NodeId> first = decode(decoder, encoded(KINDS), KINDS.size());
        List<NodeId> second = decode(decoder, encoded(KINDS), KINDS.size());
        List<NodeId> third = decode(decoder, encoded(KINDS), KINDS.size());
        assertThat(first).isEqualTo(KINDS);
        assertThat(third).isEqualTo(KINDS);
        for (int i = 0; i < KINDS.size(); i++) {
            assertThat(third.get(i)).as("kept on its second sighting: %s", KINDS.get(i)).isSameAs(second.get(i));
        }
    }

    @Test
    void a_thousand_ids_read_request_after_request_are_almost_all_kept() {
        UaDecoder decoder = new UaDecoder(CodecRegistry.standard(), EncodingLimits.DEFAULT).cacheNodeIds();
        List<NodeId> ids = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            ids.add(NodeId.string(2, "Bench.Var." + i));
        }
        List<NodeId> previous = null;
        List<NodeId> last = null;
        for (int round = 0; round < 4; round++) {
            previous = last;
            last = decode(decoder, encoded(ids), ids.size());
        }
        int kept = 0;
        for (int i = 0; i < ids.size(); i++) {
            kept += last.get(i) == previous.get(i) ? 1 : 0;
        }
        // two ways per set: only ids of the few sets that three or more share miss (one way of 2,048 slots
        // kept 323, two ways of 2,048 sets with the polynomial hash alone 785)
        assertThat(kept).as("ids decoded as the instance of the round before").isGreaterThanOrEqualTo(960);
        assertThat(last).isEqualTo(ids);
    }

    @Test
    void ids_that_differ_in_one_byte_or_in_their_namespace_are_not_confused() {
        UaDecoder decoder = new UaDecoder(CodecRegistry.standard(), EncodingLimits.DEFAULT).cacheNodeIds();
        List<NodeId> ids = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) { // more than the slots: collisions replace entries
            ids.add(NodeId.string(2 + i % 3, "v" + i));
            ids.add(NodeId.numeric(2 + i % 2, i));
        }
        for (int round = 0; round < 3; round++) {
            assertThat(decode(decoder, encoded(ids), ids.size())).isEqualTo(ids);
        }
    }

    @Test
    void the_bytes_compare_equal_only_when_every_byte_is_equal_whatever_its_place_in_a_word_or_the_tail() {
        for (int length = 0; length <= NodeIdCache.MAX_BYTES; length++) {
            byte[] encoded = new byte[length];
            for (int i = 0; i < length; i++) {
                encoded[i] = (byte) (i * 37 + length);
            }
            ByteBuf buf = Unpooled.buffer().writeByte(0x55).writeBytes(encoded).writeLong(-1L);
            NodeIdCache.Entry entry = NodeIdCache.Entry.of(Unpooled.wrappedBuffer(encoded), 0, 1, length, null);
            assertThat(entry.matches(buf, 1, 1, length)).as("length %d, equal", length).isTrue();
            for (int i = 0; i < length; i++) {
                buf.setByte(1 + i, encoded[i] ^ 0x80);
                assertThat(entry.matches(buf, 1, 1, length)).as("length %d, byte %d differs", length, i)
                        .isFalse();
                buf.setByte(1 + i, encoded[i]);
            }
            int hash = NodeIdCache.hash(buf.readerIndex(1), 3, length);
            buf.setByte(1 + length, 0); // the byte after the id is not part of it
            assertThat(NodeIdCache.hash(buf, 3, length)).as("length %d", length).isEqualTo(hash).isNotZero();
            if (length > 0) {
                buf.setByte(length, encoded[length - 1] + 1);
                assertThat(NodeIdCache.hash(buf, 3, length)).as("length %d, last byte changed", length)
                        .isNotEqualTo(hash);
            }
        }
    }

    @Test
    void long_identifiers_are_decoded_as_usual_and_limits_still_apply() {
        String longId = "x".repeat(NodeIdCache.MAX_BYTES * 2);
        UaDecoder decoder = new UaDecoder(CodecRegistry.standard(), EncodingLimits.DEFAULT).cacheNodeIds();
        List<NodeId> ids = List.of(NodeId.string(2, longId), NodeId.string(2, longId));
        assertThat(decode(decoder, encoded(ids), 2)).isEqualTo(ids);

        UaDecoder strict = new UaDecoder(CodecRegistry.standard(), new EncodingLimits(8, 1 << 20, 65_535, 200))
                .cacheNodeIds();
        ByteBuf tooLong = encoded(List.of(NodeId.string(2, "longer than eight")));
        UaEncodingException e = catchThrowableOfType(() -> decode(strict, tooLong, 1), UaEncodingException.class);
        assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadEncodingLimitsExceeded);
    }

    @Test
    void a_truncated_id_fails_as_without_the_cache() {
        ByteBuf whole = encoded(List.of(NodeId.string(2, "Bench/v0001")));
        UaDecoder decoder = new UaDecoder(CodecRegistry.standard(), EncodingLimits.DEFAULT).cacheNodeIds();
        for (int i = 0; i < 2; i++) {
            decode(decoder, whole.duplicate(), 1);
        }
        ByteBuf truncated = whole.slice(0, whole.readableBytes() - 1);
        UaEncodingException e = catchThrowableOfType(() -> decode(decoder, truncated, 1), UaEncodingException.class);
        assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadDecodingError);
    }
}
