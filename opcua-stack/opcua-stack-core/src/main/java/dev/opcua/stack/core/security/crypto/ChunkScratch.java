package dev.opcua.stack.core.security.crypto;

import io.netty.util.concurrent.FastThreadLocal;

/**
 * The two working arrays of {@link SymmetricChunkCrypto}, one pair per thread rather than per channel token
 * and direction: a secured chunk is copied in, signed and encrypted (or decrypted and verified) and copied
 * out within one call, so nothing in them outlives the call, and a server of 10,000 idle secure channels
 * holds a few threads' arrays instead of 40,000 arrays of at least 8 KiB each.
 */
final class ChunkScratch {

    /** The smallest array allocated: a typical chunk fits, so an array is allocated once per thread. */
    static final int MIN_SIZE = 8192;

    private static final FastThreadLocal<ChunkScratch> SCRATCH = new FastThreadLocal<>() {
        @Override
        protected ChunkScratch initialValue() {
            return new ChunkScratch();
        }
    };

    private byte[] plain = new byte[0];
    private byte[] crypt = new byte[0];

    private ChunkScratch() {
    }

    /** This thread's arrays. */
    static ChunkScratch forThisThread() {
        return SCRATCH.get();
    }

    /** The array for plain text of at least {@code size} bytes. */
    byte[] plain(int size) {
        if (plain.length < size) {
            plain = new byte[Math.max(size, MIN_SIZE)];
        }
        return plain;
    }

    /** The array for cipher text of at least {@code size} bytes; never the same array as {@link #plain}. */
    byte[] crypt(int size) {
        if (crypt.length < size) {
            crypt = new byte[Math.max(size, MIN_SIZE)];
        }
        return crypt;
    }
}
