package dev.opcua.stack.core.security;

import io.netty.buffer.ByteBuf;

/**
 * The crypto applied to each chunk of one channel token and direction (Part 6, 6.7.2.5 footer and
 * 6.7.6 verification). The security issue implements signing and encryption here, with one
 * initialised cipher and MAC per token and direction, reused for every chunk; {@link #NONE} is the
 * identity of SecurityPolicy None.
 *
 * <p>Layout of a chunk: message header (12) | security header | sequence header (8) | body | footer.
 * "Secured" bytes start at the sequence header for symmetric chunks.
 */
public interface ChunkCrypto {

    /** SecurityPolicy None: no footer, nothing signed or encrypted. */
    ChunkCrypto NONE = new ChunkCrypto() {
        @Override
        public int maxBodySize(int chunkSize, int headersSize) {
            return chunkSize - headersSize;
        }

        @Override
        public void secure(ByteBuf chunk, int chunkStart, int securedStart) {
        }

        @Override
        public int verify(ByteBuf chunk, int chunkStart, int securedStart) {
            return chunk.writerIndex();
        }
    };

    /**
     * Most body bytes one chunk of {@code chunkSize} bytes can carry, after {@code headersSize} bytes of
     * message, security and sequence headers and the footer this crypto appends.
     */
    int maxBodySize(int chunkSize, int headersSize);

    /**
     * Appends padding and signature to the chunk that starts at {@code chunkStart} and ends at the
     * writer index, and encrypts from {@code securedStart}. The final chunk size is written into the
     * message header before signing, since the signature covers it (Part 6, 6.7.2.5).
     */
    void secure(ByteBuf chunk, int chunkStart, int securedStart);

    /**
     * Decrypts from {@code securedStart} and verifies the chunk starting at {@code chunkStart} in
     * place; returns the index where the body ends (the footer starts).
     *
     * @throws dev.opcua.stack.core.UaException with BadSecurityChecksFailed when verification fails
     */
    int verify(ByteBuf chunk, int chunkStart, int securedStart);
}
