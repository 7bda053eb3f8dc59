package dev.opcua.stack.core.encoding.binary;

import dev.opcua.stack.core.types.builtin.NodeId;
import io.netty.buffer.ByteBuf;

/**
 * The NodeIds a decoder read recently, by their encoded bytes: a request names the same nodes again and
 * again (the items of a Read, a session's authenticationToken in every RequestHeader), and a NodeId is
 * immutable, so the instance decoded before is returned instead of a new NodeId, String or ByteString.
 *
 * <p>Bounded: {@value #SETS} sets of two ways, encodings of at most {@value #MAX_BYTES} bytes. A NodeId is
 * kept on its second sighting in a set, so that a stream of distinct ids (a Browse of a large folder, a
 * fuzzer) costs a hash per id and no allocation beyond the decoding it would do anyway. Two ways, and
 * the last two uncached hashes remembered per set, so that two ids of one set that alternate (a Read of a
 * thousand items comes back request after request) are both kept: with one slot and one remembered hash
 * such a pair displaced each other for ever: of a thousand ids read again and again, 323 were kept.
 * Owned by one {@link UaDecoder}, so not thread-safe.
 */
final class NodeIdCache {

    static final int SETS = 4096;
    /** Longest encoding (after the encoding byte) that is cached: numeric, GUID and short string/opaque ids. */
    static final int MAX_BYTES = 64;

    /** Per set, the two hashes last seen and not cached: [2s] the newer, [2s + 1] the older. */
    private final int[] seen = new int[SETS * 2];
    /** Per set, two ways: [2s] the newer entry, [2s + 1] the older. */
    private final Entry[] entries = new Entry[SETS * 2];

    private record Entry(int hash, byte[] encoded, NodeId nodeId) {

        boolean matches(ByteBuf buf, int hash, int length) {
            if (this.hash != hash || encoded.length != length) {
                return false;
            }
            int from = buf.readerIndex();
            for (int i = 0; i < length; i++) {
                if (encoded[i] != buf.getByte(from + i)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** The hash of {@code length} bytes at the buffer's reader index, mixed with the encoding byte; never 0. */
    static int hash(ByteBuf buf, int encoding, int length) {
        int h = encoding * 31 + length;
        int from = buf.readerIndex();
        for (int i = 0; i < length; i++) {
            h = h * 31 + buf.getByte(from + i);
        }
        // The finaliser of MurmurHash3: the polynomial alone puts ids that differ in their last digits
        // ("Var.1" ... "Var.999") on a few residues of the set index (31 * 31 = 961 keeps them mod 31).
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h == 0 ? 1 : h;
    }

    /** The cached NodeId whose encoding is the next {@code length} bytes (not consumed), or null. */
    NodeId find(ByteBuf buf, int hash, int length) {
        int way = (hash & (SETS - 1)) << 1;
        Entry entry = entries[way];
        if (entry != null && entry.matches(buf, hash, length)) {
            return entry.nodeId;
        }
        entry = entries[way + 1];
        if (entry != null && entry.matches(buf, hash, length)) {
            return entry.nodeId;
        }
        return null;
    }

    /**
     * Remembers a NodeId just decoded from the {@code length} bytes that end at the reader index: kept
     * (as the set's newer entry, the older one dropped) when this hash is one of the two last seen in its
     * set, else only the hash is noted.
     */
    void offer(ByteBuf buf, int hash, int length, NodeId nodeId) {
        int way = (hash & (SETS - 1)) << 1;
        if (seen[way] != hash && seen[way + 1] != hash) {
            seen[way + 1] = seen[way];
            seen[way] = hash;
            return;
        }
        byte[] encoded = new byte[length];
        buf.getBytes(buf.readerIndex() - length, encoded);
        entries[way + 1] = entries[way];
        entries[way] = new Entry(hash, encoded, nodeId);
    }
}
