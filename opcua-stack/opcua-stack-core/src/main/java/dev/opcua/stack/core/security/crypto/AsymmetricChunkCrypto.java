package dev.opcua.stack.core.security.crypto;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ChunkCrypto;
import dev.opcua.stack.core.security.SecurityPolicy;
import io.netty.buffer.ByteBuf;
import java.security.PrivateKey;
import java.security.PublicKey;

/**
 * Signing and encryption of OpenSecureChannel chunks (Part 6, 6.7.2.5): signed with the sender's
 * private key over the chunk from the message header to the end of the padding, then the sequence
 * header, body, padding and signature encrypted with the receiver's public key in RSA blocks. OPN
 * chunks are encrypted in modes Sign and SignAndEncrypt alike (Part 6, 6.7.2.1). When the
 * encrypting key is longer than 2048 bits the padding ends with an ExtraPaddingSize byte.
 *
 * <p>OPN messages are rare (one per token), so this class favours clarity over reuse.
 */
public final class AsymmetricChunkCrypto implements ChunkCrypto {

    private final SecurityPolicy policy;
    private final PrivateKey ownKey;
    private final PublicKey peerKey;
    private final boolean sending;

    private AsymmetricChunkCrypto(SecurityPolicy policy, PrivateKey ownKey, PublicKey peerKey, boolean sending) {
        if (policy == SecurityPolicy.None) {
            throw new IllegalArgumentException("SecurityPolicy None has no asymmetric crypto");
        }
        this.policy = policy;
        this.ownKey = ownKey;
        this.peerKey = peerKey;
        this.sending = sending;
    }

    /** Secures OPN chunks we send: signed with our key, encrypted for the peer's. */
    public static AsymmetricChunkCrypto forSending(SecurityPolicy policy, PrivateKey ownKey, PublicKey peerKey) {
        return new AsymmetricChunkCrypto(policy, ownKey, peerKey, true);
    }

    /** Verifies OPN chunks the peer sends: decrypted with our key, signature checked with the peer's. */
    public static AsymmetricChunkCrypto forReceiving(SecurityPolicy policy, PrivateKey ownKey, PublicKey peerKey) {
        return new AsymmetricChunkCrypto(policy, ownKey, peerKey, false);
    }

    @Override
    public int maxBodySize(int chunkSize, int headersSize) {
        int cipherBlock = AsymmetricCrypto.keySizeBytes(peerKey);
        int plainBlock = cipherBlock - policy.asymmetricEncryptionOverhead();
        int securityHeadersEnd = headersSize - 8;
        int blocks = (chunkSize - securityHeadersEnd) / cipherBlock;
        int extra = cipherBlock > 256 ? 1 : 0;
        return blocks * plainBlock - 8 - AsymmetricCrypto.keySizeBytes(ownKey) - 1 - extra;
    }

    @Override
    public void secure(ByteBuf chunk, int chunkStart, int securedStart) {
        if (!sending) {
            throw new IllegalStateException("a receiving crypto does not secure chunks");
        }
        int cipherBlock = AsymmetricCrypto.keySizeBytes(peerKey);
        int plainBlock = cipherBlock - policy.asymmetricEncryptionOverhead();
        int signatureSize = AsymmetricCrypto.keySizeBytes(ownKey);
        boolean extra = cipherBlock > 256;
        int plainLength = chunk.writerIndex() - securedStart;
        int fixed = plainLength + 1 + (extra ? 1 : 0) + signatureSize;
        int padding = (plainBlock - fixed % plainBlock) % plainBlock;
        chunk.writeByte(padding & 0xFF);
        for (int i = 0; i < padding; i++) {
            chunk.writeByte(padding & 0xFF);
        }
        if (extra) {
            chunk.writeByte(padding >>> 8);
        }
        int encryptedLength = (fixed + padding) / plainBlock * cipherBlock;
        chunk.setIntLE(chunkStart + 4, securedStart - chunkStart + encryptedLength);
        byte[] signed = new byte[chunk.writerIndex() - chunkStart];
        chunk.getBytes(chunkStart, signed);
        byte[] signature = AsymmetricCrypto.sign(policy, ownKey, signed);
        int offset = securedStart - chunkStart;
        byte[] plaintext = new byte[signed.length - offset + signature.length];
        System.arraycopy(signed, offset, plaintext, 0, signed.length - offset);
        System.arraycopy(signature, 0, plaintext, signed.length - offset, signature.length);
        byte[] ciphertext = AsymmetricCrypto.encrypt(policy, peerKey, plaintext);
        chunk.writerIndex(securedStart);
        chunk.writeBytes(ciphertext);
    }

    @Override
    public int verify(ByteBuf chunk, int chunkStart, int securedStart) {
        if (sending) {
            throw new IllegalStateException("a sending crypto does not verify chunks");
        }
        int securedLength = chunk.writerIndex() - securedStart;
        byte[] ciphertext = new byte[securedLength];
        chunk.getBytes(securedStart, ciphertext);
        byte[] plaintext = AsymmetricCrypto.decrypt(policy, ownKey, ciphertext, 0, securedLength);
        int signatureSize = AsymmetricCrypto.keySizeBytes(peerKey);
        int signedPlain = plaintext.length - signatureSize;
        if (signedPlain < 8 + 1) {
            throw new UaException(StatusCodes.BadSecurityChecksFailed, "the OPN chunk is too short for its signature");
        }
        int offset = securedStart - chunkStart;
        byte[] signed = new byte[offset + signedPlain];
        chunk.getBytes(chunkStart, signed, 0, offset);
        System.arraycopy(plaintext, 0, signed, offset, signedPlain);
        byte[] signature = new byte[signatureSize];
        System.arraycopy(plaintext, signedPlain, signature, 0, signatureSize);
        if (!AsymmetricCrypto.verify(policy, peerKey, signature, signed)) {
            throw new UaException(StatusCodes.BadSecurityChecksFailed, "the OPN chunk's signature is wrong");
        }
        boolean extra = AsymmetricCrypto.keySizeBytes(ownKey) > 256;
        int padEnd = signedPlain - (extra ? 1 : 0);
        int padding = plaintext[padEnd - 1] & 0xFF;
        if (extra) {
            padding |= (plaintext[padEnd] & 0xFF) << 8;
        }
        int bodyEnd = padEnd - 1 - padding;
        if (bodyEnd < 8) {
            throw new UaException(StatusCodes.BadSecurityChecksFailed, "the OPN chunk's padding size " + padding
                    + " is larger than the chunk");
        }
        for (int i = bodyEnd; i < padEnd; i++) {
            if ((plaintext[i] & 0xFF) != (padding & 0xFF)) {
                throw new UaException(StatusCodes.BadSecurityChecksFailed, "the OPN chunk's padding is malformed");
            }
        }
        chunk.setBytes(securedStart, plaintext, 0, bodyEnd);
        return securedStart + bodyEnd;
    }
}
