package dev.opcua.stack.core.encoding.binary;

import dev.opcua.stack.core.types.builtin.NodeId;
import io.netty.buffer.ByteBuf;

/**
 * The NodeIds a decoder read recently, by their encoded bytes: a request names the same nodes again and
 * again (the items of a Read, a session's authenticationToken in every RequestHeader), and a NodeId is
 * immutable, so the instance decoded before is returned instead of a new NodeId, String or ByteString.
 *
 * <p>Direct-mapped and bounded ({@value #SLOTS} slots, encodings of at most {@value #MAX_BYTES} bytes).
 * A NodeId is kept on its second sighting in a slot, so that a stream of distinct ids (a Browse of a
 * large folder, a fuzzer) costs a hash per id and no allocation beyond the decoding it would do anyway.
 * Owned by one {@link UaDecoder}, so not thread-safe.
 */
final class NodeIdCache {

    static final int SLOTS = 2048;
    /** Longest encoding (after the encoding byte) that is cached: numeric, GUID and short string/opaque ids. */
    static final int MAX_BYTES = 64;

    private final int[] seen = new int[SLOTS];
    private final Entry[] entries = new Entry[SLOTS];

    private record Entry(int hash, byte[] encoded, NodeId nodeId) {
    }

    /** The hash of {@code length} bytes at the buffer's reader index, mixed with the encoding byte; never 0. */
    static int hash(ByteBuf buf, int encoding, int length) {
        int h = encoding * 31 + length;
        int from = buf.readerIndex();
        for (int i = 0; i < length; i++) {
            h = h * 31 + buf.getByte(from + i);
        }
        h ^= h >>> 16;
        return h == 0 ? 1 : h;
    }

    /** The cached NodeId whose encoding is the next {@code length} bytes (not consumed), or null. */
    NodeId find(ByteBuf buf, int hash, int length) {
        Entry entry = entries[hash & (SLOTS - 1)];
        if (entry == null || entry.hash != hash || entry.encoded.length != length) {
            return null;
        }
        int from = buf.readerIndex();
        byte[] encoded = entry.encoded;
        for (int i = 0; i < length; i++) {
            if (encoded[i] != buf.getByte(from + i)) {
                return null;
            }
        }
        return entry.nodeId;
    }

    /**
     * Remembers a NodeId just decoded from the {@code length} bytes that end at the reader index: kept
     * when this hash was seen in its slot before, else only the hash is noted.
     */
    void offer(ByteBuf buf, int hash, int length, NodeId nodeId) {
        int slot = hash & (SLOTS - 1);
        if (seen[slot] != hash) {
            seen[slot] = hash;
            return;
        }
        byte[] encoded = new byte[length];
        buf.getBytes(buf.readerIndex() - length, encoded);
        entries[slot] = new Entry(hash, encoded, nodeId);
    }
}
