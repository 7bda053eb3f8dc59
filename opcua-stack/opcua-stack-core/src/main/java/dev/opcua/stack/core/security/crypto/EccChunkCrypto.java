package dev.opcua.stack.core.security.crypto;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ChunkCrypto;
import dev.opcua.stack.core.security.SecurityPolicy;
import io.netty.buffer.ByteBuf;
import java.security.PrivateKey;
import java.security.PublicKey;

/**
 * OpenSecureChannel chunks of the ECC policies (Part 6, 6.7.2 and 6.8.1): ECC keys sign but do not
 * encrypt, so an OPN chunk is sent in the clear and signed with the sender's certificate key: the ECDSA
 * signature (r | s, each as long as a coordinate) follows the body, without padding, and covers the chunk
 * from the message header to the end of the body. What the OPN protects, the ephemeral public keys in
 * its nonces, is public by nature; the symmetric keys come from their ECDH secret.
 *
 * <p>A receiver takes the body to end where the signature starts; a peer that appends a padding-size
 * byte leaves it behind the encoded request, where the decoder does not look.
 */
public final class EccChunkCrypto implements ChunkCrypto {

    private final SecurityPolicy policy;
    private final PrivateKey ownKey;
    private final PublicKey peerKey;
    private final int signatureSize;

    private EccChunkCrypto(SecurityPolicy policy, PrivateKey ownKey, PublicKey peerKey) {
        if (!policy.isEcc()) {
            throw new IllegalArgumentException(policy + " is not an ECC security policy");
        }
        this.policy = policy;
        this.ownKey = ownKey;
        this.peerKey = peerKey;
        this.signatureSize = policy.eccSignatureSize();
    }

    /** Signs the OPN chunks we send with our certificate's key. */
    public static EccChunkCrypto forSending(SecurityPolicy policy, PrivateKey ownKey) {
        return new EccChunkCrypto(policy, ownKey, null);
    }

    /** Verifies the OPN chunks the peer sends against its certificate's key. */
    public static EccChunkCrypto forReceiving(SecurityPolicy policy, PublicKey peerKey) {
        return new EccChunkCrypto(policy, null, peerKey);
    }

    @Override
    public int maxBodySize(int chunkSize, int headersSize) {
        return chunkSize - headersSize - signatureSize;
    }

    @Override
    public void secure(ByteBuf chunk, int chunkStart, int securedStart) {
        if (ownKey == null) {
            throw new IllegalStateException("a receiving crypto does not secure chunks");
        }
        chunk.setIntLE(chunkStart + 4, chunk.writerIndex() - chunkStart + signatureSize);
        byte[] signed = new byte[chunk.writerIndex() - chunkStart];
        chunk.getBytes(chunkStart, signed);
        byte[] signature = AsymmetricCrypto.sign(policy, ownKey, signed);
        if (signature.length != signatureSize) {
            throw new UaException(StatusCodes.BadSecurityChecksFailed, "the certificate key made a "
                    + signature.length + "-byte signature where " + policy + " needs " + signatureSize);
        }
        chunk.writeBytes(signature);
    }

    @Override
    public int verify(ByteBuf chunk, int chunkStart, int securedStart) {
        if (peerKey == null) {
            throw new IllegalStateException("a sending crypto does not verify chunks");
        }
        int end = chunk.writerIndex();
        int signatureStart = end - signatureSize;
        if (signatureStart - securedStart < 8 + 1) {
            throw new UaException(StatusCodes.BadSecurityChecksFailed, "the OPN chunk of " + (end - chunkStart)
                    + " bytes is too short for a " + signatureSize + "-byte " + policy + " signature");
        }
        byte[] signed = new byte[signatureStart - chunkStart];
        chunk.getBytes(chunkStart, signed);
        byte[] signature = new byte[signatureSize];
        chunk.getBytes(signatureStart, signature);
        if (!AsymmetricCrypto.verify(policy, peerKey, signature, signed)) {
            throw new UaException(StatusCodes.BadSecurityChecksFailed, "the OPN chunk's " + policy
                    + " signature is wrong");
        }
        return signatureStart;
    }
}
