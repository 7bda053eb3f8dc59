package dev.opcua.stack.core.security.crypto;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ChunkCrypto;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import io.netty.buffer.ByteBuf;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signing and encryption of MSG and CLO chunks under one channel token, in one direction (Part 6,
 * 6.7.2.5 and 6.7.2.6): HMAC over the chunk from the message header to the end of the padding,
 * AES-CBC over the sequence header, body, padding and signature.
 *
 * <p>Speed by construction: the {@link Mac} and the {@link Cipher} are created and keyed once, when
 * the token's keys are derived, and reused for every chunk. Every chunk of a token starts from the
 * same IV (Part 6, 6.7.5), and {@code doFinal} returns the cipher to its initialised state, so
 * nothing is re-initialised per chunk. Work happens in the two scratch arrays of the calling thread
 * ({@link ChunkScratch}), so securing a chunk allocates nothing once they have grown to the chunk size, and
 * an idle channel holds no scratch memory (a server holds thousands of idle secure channels).
 *
 * <p>Not thread-safe. One instance serves one direction of one token: the sending one is used under
 * the channel's send lock, the receiving one on the channel's event loop.
 */
public final class SymmetricChunkCrypto implements ChunkCrypto {

    private final boolean encrypt;
    private final int signatureSize;
    private final int blockSize;
    private final Mac mac;
    private final Cipher cipher;
    private final byte[] expected;

    private SymmetricChunkCrypto(EndpointSecurity security, KeyDerivation.Keys keys, int cipherMode) {
        SecurityPolicy policy = security.policy();
        if (!security.signs()) {
            throw new IllegalArgumentException("mode " + security.mode() + " has no symmetric crypto");
        }
        this.encrypt = security.encrypts();
        this.signatureSize = policy.symmetricSignatureSize();
        this.blockSize = policy.encryptingBlockSize();
        this.expected = new byte[signatureSize];
        try {
            mac = Mac.getInstance(policy.symmetricSignatureAlgorithm());
            mac.init(new SecretKeySpec(keys.signingKey(), policy.symmetricSignatureAlgorithm()));
            if (encrypt) {
                cipher = Cipher.getInstance("AES/CBC/NoPadding");
                cipher.init(cipherMode, new SecretKeySpec(keys.encryptingKey(), "AES"),
                        new IvParameterSpec(keys.initializationVector()));
            } else {
                cipher = null;
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK lacks an algorithm of " + policy, e);
        }
    }

    /** The crypto that secures chunks this side sends, with this side's keys. */
    public static SymmetricChunkCrypto forSending(EndpointSecurity security, KeyDerivation.Keys ownKeys) {
        return new SymmetricChunkCrypto(security, ownKeys, Cipher.ENCRYPT_MODE);
    }

    /** The crypto that verifies chunks the peer sends, with the peer's keys. */
    public static SymmetricChunkCrypto forReceiving(EndpointSecurity security, KeyDerivation.Keys peerKeys) {
        return new SymmetricChunkCrypto(security, peerKeys, Cipher.DECRYPT_MODE);
    }

    @Override
    public int maxBodySize(int chunkSize, int headersSize) {
        if (!encrypt) {
            return chunkSize - headersSize - signatureSize;
        }
        // Everything after the security header is encrypted in whole blocks; one padding-size byte at least.
        int securityHeadersEnd = headersSize - 8;
        int encryptable = (chunkSize - securityHeadersEnd) / blockSize * blockSize;
        return encryptable - 8 - signatureSize - 1;
    }

    @Override
    public void secure(ByteBuf chunk, int chunkStart, int securedStart) {
        if (encrypt) {
            int plainLength = chunk.writerIndex() - securedStart;
            int padding = (blockSize - (plainLength + 1 + signatureSize) % blockSize) % blockSize;
            for (int i = 0; i <= padding; i++) {
                chunk.writeByte(padding); // PaddingSize, then Padding bytes of the same value (Part 6, 6.7.2.5)
            }
        }
        int signedLength = chunk.writerIndex() - chunkStart;
        chunk.setIntLE(chunkStart + 4, signedLength + signatureSize); // the size is signed too
        ChunkScratch scratch = ChunkScratch.forThisThread();
        byte[] work = scratch.plain(signedLength + signatureSize);
        chunk.getBytes(chunkStart, work, 0, signedLength);
        try {
            mac.update(work, 0, signedLength);
            mac.doFinal(work, signedLength);
            if (!encrypt) {
                chunk.writeBytes(work, signedLength, signatureSize);
                return;
            }
            int offset = securedStart - chunkStart;
            int length = signedLength + signatureSize - offset;
            byte[] out = scratch.crypt(length);
            int written = cipher.doFinal(work, offset, length, out, 0);
            chunk.writerIndex(securedStart);
            chunk.writeBytes(out, 0, written);
        } catch (GeneralSecurityException e) {
            throw new UaException(StatusCodes.BadSecurityChecksFailed, "securing a chunk failed: " + e);
        }
    }

    @Override
    public int verify(ByteBuf chunk, int chunkStart, int securedStart) {
        int end = chunk.writerIndex();
        int chunkLength = end - chunkStart;
        int offset = securedStart - chunkStart;
        int securedLength = end - securedStart;
        ChunkScratch scratch = ChunkScratch.forThisThread();
        byte[] work = scratch.plain(chunkLength);
        try {
            if (encrypt) {
                if (securedLength <= 0 || securedLength % blockSize != 0) {
                    throw failed(securedLength + " encrypted bytes are not a whole number of AES blocks");
                }
                chunk.getBytes(chunkStart, work, 0, offset);
                byte[] in = scratch.crypt(securedLength);
                chunk.getBytes(securedStart, in, 0, securedLength);
                cipher.doFinal(in, 0, securedLength, work, offset);
            } else {
                chunk.getBytes(chunkStart, work, 0, chunkLength);
            }
        } catch (GeneralSecurityException e) {
            throw failed("the chunk does not decrypt");
        }
        int signedLength = chunkLength - signatureSize;
        if (signedLength < offset + 8) {
            throw failed("the chunk is too short for its sequence header and signature");
        }
        mac.update(work, 0, signedLength);
        try {
            mac.doFinal(expected, 0);
        } catch (GeneralSecurityException e) {
            throw failed("the chunk's signature cannot be computed: " + e);
        }
        if (!constantTimeEquals(expected, work, signedLength)) {
            throw failed("the chunk's signature is wrong");
        }
        int bodyEnd = signedLength;
        if (encrypt) {
            int padding = work[signedLength - 1] & 0xFF;
            bodyEnd = signedLength - 1 - padding;
            if (bodyEnd < offset + 8) {
                throw failed("the chunk's padding size " + padding + " is larger than the chunk");
            }
            for (int i = bodyEnd; i < signedLength; i++) {
                if ((work[i] & 0xFF) != padding) {
                    throw failed("the chunk's padding is malformed");
                }
            }
            chunk.setBytes(securedStart, work, offset, bodyEnd - offset);
        }
        return chunkStart + bodyEnd;
    }

    private static boolean constantTimeEquals(byte[] expected, byte[] actual, int offset) {
        int diff = 0;
        for (int i = 0; i < expected.length; i++) {
            diff |= expected[i] ^ actual[offset + i];
        }
        return diff == 0;
    }

    private static UaException failed(String reason) {
        return new UaException(StatusCodes.BadSecurityChecksFailed, reason);
    }
}
