package dev.opcua.stack.core.encoding.binary;

import dev.opcua.stack.core.types.builtin.NodeId;
import io.netty.buffer.ByteBuf;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

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
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);

    /** Per set, the two hashes last seen and not cached: [2s] the newer, [2s + 1] the older. */
    private final int[] seen = new int[SETS * 2];
    /** Per set, two ways: [2s] the newer entry, [2s + 1] the older. */
    private final Entry[] entries = new Entry[SETS * 2];

    private record Entry(int hash, byte[] encoded, NodeId nodeId) {

        boolean matches(ByteBuf buf, int hash, int length) {
            if (this.hash != hash || encoded.length != length) {
                return false;
            }
            return equalBytes(encoded, buf, buf.readerIndex());
        }
    }

    /** Whether the buffer holds {@code encoded} at {@code from}; eight bytes a step, as {@link #hash}. */
    static boolean equalBytes(byte[] encoded, ByteBuf buf, int from) {
        int length = encoded.length;
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES) {
            if ((long) LONG_LE.get(encoded, i) != buf.getLongLE(from + i)) {
                return false;
            }
        }
        for (; i < length; i++) {
            if (encoded[i] != buf.getByte(from + i)) {
                return false;
            }
        }
        return true;
    }

    /** The hash of {@code length} bytes at the buffer's reader index, mixed with the encoding byte; never 0. */
    static int hash(ByteBuf buf, int encoding, int length) {
        long h = encoding * 31L + length;
        int from = buf.readerIndex();
        // eight bytes a step: a ByteBuf checks its bounds and reference count on every get, so reading a
        // 20-byte string id byte by byte, to hash it and then to compare it, cost more than decoding it
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES) {
            h = (h + buf.getLongLE(from + i)) * GOLDEN;
        }
        long tail = 0;
        for (int shift = 0; i < length; i++, shift += Byte.SIZE) {
            tail |= (buf.getByte(from + i) & 0xFFL) << shift;
        }
        h = (h + tail) * GOLDEN;
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
