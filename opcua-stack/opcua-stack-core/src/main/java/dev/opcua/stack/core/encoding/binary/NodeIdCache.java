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

    /** 2^64 divided by the golden ratio: a multiplier that spreads every input bit over the high bits. */
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    /** Per set, the two hashes last seen and not cached: [2s] the newer, [2s + 1] the older. */
    private final int[] seen = new int[SETS * 2];
    /** Per set, two ways: [2s] the newer entry, [2s + 1] the older. */
    private final Entry[] entries = new Entry[SETS * 2];

    /**
     * A kept id: its encoding as the {@link #word words} the buffer is compared with, the first two in the
     * entry itself (every numeric id, a string id of up to ten characters), so that a hit reads no array.
     */
    record Entry(int hash, int length, long w0, long w1, long[] rest, NodeId nodeId) {

        static Entry of(ByteBuf buf, int from, int hash, int length, NodeId nodeId) {
            int words = words(length);
            long[] rest = words > 2 ? new long[words - 2] : null;
            for (int i = 2; i < words; i++) {
                rest[i - 2] = word(buf, from, length, i);
            }
            return new Entry(hash, length, words > 0 ? word(buf, from, length, 0) : 0,
                    words > 1 ? word(buf, from, length, 1) : 0, rest, nodeId);
        }

        boolean matches(ByteBuf buf, int from, int hash, int length) {
            if (this.hash != hash || this.length != length) {
                return false;
            }
            int words = words(length);
            if (words > 0 && w0 != word(buf, from, length, 0) || words > 1 && w1 != word(buf, from, length, 1)) {
                return false;
            }
            for (int i = 2; i < words; i++) {
                if (rest[i - 2] != word(buf, from, length, i)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Words of an encoding of {@code length} bytes: one per eight bytes begun. */
    static int words(int length) {
        return (length + Long.BYTES - 1) / Long.BYTES;
    }

    /**
     * Word {@code i} of the {@code length} bytes at {@code from}, little-endian: eight bytes a step, as a
     * ByteBuf checks its bounds and reference count on every get (reading a 13-byte string id byte by byte,
     * to hash it and then to compare it, cost more than decoding it). The last word of a length that is not
     * a multiple of eight is the last eight bytes (overlapping the word before: equal lengths overlap
     * alike), or, below eight bytes, assembled from at most three gets; never a byte beyond the id.
     */
    static long word(ByteBuf buf, int from, int length, int i) {
        int at = from + i * Long.BYTES;
        if (at + Long.BYTES <= from + length) {
            return buf.getLongLE(at);
        }
        if (length >= Long.BYTES) {
            return buf.getLongLE(from + length - Long.BYTES);
        }
        long value = 0;
        int shift = 0;
        if ((length & 4) != 0) {
            value = buf.getUnsignedIntLE(from);
            shift = 32;
        }
        if ((length & 2) != 0) {
            value |= (long) buf.getUnsignedShortLE(from + shift / Byte.SIZE) << shift;
            shift += 16;
        }
        if ((length & 1) != 0) {
            value |= (long) buf.getUnsignedByte(from + shift / Byte.SIZE) << shift;
        }
        return value;
    }

    /** The hash of {@code length} bytes at the buffer's reader index, mixed with the encoding byte; never 0. */
    static int hash(ByteBuf buf, int encoding, int length) {
        long h = encoding * 31L + length;
        int from = buf.readerIndex();
        int words = words(length);
        if (words == 0) {
            h *= GOLDEN;
        }
        for (int i = 0; i < words; i++) {
            h = (h + word(buf, from, length, i)) * GOLDEN;
        }
        // The finaliser of MurmurHash3 (64 bits): ids that differ only in their last digits ("Var.1" ...
        // "Var.999") must spread over all the sets, not over a few residues of the set index.
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        int folded = (int) h;
        return folded == 0 ? 1 : folded;
    }

    /** The cached NodeId whose encoding is the next {@code length} bytes (not consumed), or null. */
    NodeId find(ByteBuf buf, int hash, int length) {
        int way = (hash & (SETS - 1)) << 1;
        int from = buf.readerIndex();
        Entry entry = entries[way];
        if (entry != null && entry.matches(buf, from, hash, length)) {
            return entry.nodeId;
        }
        entry = entries[way + 1];
        if (entry != null && entry.matches(buf, from, hash, length)) {
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
        entries[way + 1] = entries[way];
        entries[way] = Entry.of(buf, buf.readerIndex() - length, hash, length, nodeId);
    }
}
