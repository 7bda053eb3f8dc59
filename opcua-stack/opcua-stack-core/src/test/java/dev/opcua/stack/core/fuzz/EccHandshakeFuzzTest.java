package dev.opcua.stack.core.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.crypto.EccChunkCrypto;
import dev.opcua.stack.core.security.crypto.EccCrypto;
import dev.opcua.stack.core.security.crypto.EccEncryptedSecret;
import dev.opcua.stack.core.security.crypto.KeyDerivation;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.EnumMap;
import java.util.Map;

/**
 * What a peer controls in the ECC handshake (Part 6, 6.8.1): the ephemeral public key in an
 * OpenSecureChannel nonce, the signed-only OPN chunk around it, and the EccEncryptedSecret of a password.
 *
 * <p>The first input byte picks one of the four ECC policies. A nonce is either refused with
 * BadNonceInvalid or is a point on the policy's curve that gives a shared secret and channel keys; a chunk
 * is either refused with BadSecurityChecksFailed or carries a signature of the certificate's key, which a
 * fuzzer cannot make. Any other exception is a finding.
 */
class EccHandshakeFuzzTest {

    private static final SecurityPolicy[] POLICIES = {SecurityPolicy.ECC_nistP256, SecurityPolicy.ECC_nistP384,
            SecurityPolicy.ECC_brainpoolP256r1, SecurityPolicy.ECC_brainpoolP384r1};
    private static final Map<SecurityPolicy, KeyPair> OWN = new EnumMap<>(SecurityPolicy.class);
    private static final Map<SecurityPolicy, ApplicationCertificate> PEER = new EnumMap<>(SecurityPolicy.class);

    static {
        for (SecurityPolicy policy : POLICIES) {
            OWN.put(policy, EccCrypto.ephemeralKeyPair(policy));
            PEER.put(policy, CertificateBuilder.forApplication("ecc fuzz peer").type(policy.certificateType())
                    .applicationUri("urn:test:ecc:fuzz").build());
        }
    }

    @FuzzTest(maxDuration = "5m")
    void ephemeralKey(byte[] data) {
        if (data.length == 0) {
            return;
        }
        SecurityPolicy policy = POLICIES[(data[0] & 0xFF) % POLICIES.length];
        byte[] nonce = java.util.Arrays.copyOfRange(data, 1, data.length);
        PublicKey peer;
        try {
            peer = EccCrypto.decodePublicKey(policy, nonce);
        } catch (UaException refused) {
            if (refused.statusCode().value() != StatusCodes.BadNonceInvalid) {
                throw refused;
            }
            return;
        }
        KeyPair own = OWN.get(policy);
        byte[] secret = EccCrypto.sharedSecret(policy, own.getPrivate(), peer);
        KeyDerivation.ChannelKeys keys = KeyDerivation.deriveEcc(policy, secret, nonce,
                EccCrypto.encodePublicKey(policy, own.getPublic()));
        if (keys.client().signingKey().length != policy.signingKeyLength()) {
            throw new AssertionError("derived a signing key of " + keys.client().signingKey().length + " bytes");
        }
    }

    /**
     * An EccEncryptedSecret (Part 4, 7.40.2.5) as a UserNameIdentityToken's password: refused with
     * BadIdentityTokenInvalid, or (impossible without the keys) opened.
     */
    @FuzzTest(maxDuration = "5m")
    void encryptedSecret(byte[] data) {
        if (data.length == 0) {
            return;
        }
        SecurityPolicy policy = POLICIES[(data[0] & 0xFF) % POLICIES.length];
        try {
            EccEncryptedSecret.decrypt(policy, PEER.get(policy).certificate().getPublicKey(), OWN.get(policy),
                    new byte[32], java.util.Arrays.copyOfRange(data, 1, data.length));
            throw new AssertionError("an EccEncryptedSecret the fuzzer made was opened");
        } catch (UaException refused) {
            if (refused.statusCode().value() != StatusCodes.BadIdentityTokenInvalid) {
                throw refused;
            }
        }
    }

    @FuzzTest(maxDuration = "5m")
    void signedChunk(byte[] data) {
        if (data.length == 0) {
            return;
        }
        SecurityPolicy policy = POLICIES[(data[0] & 0xFF) % POLICIES.length];
        EccChunkCrypto crypto = EccChunkCrypto.forReceiving(policy, PEER.get(policy).certificate().getPublicKey());
        ByteBuf chunk = Unpooled.wrappedBuffer(data, 1, data.length - 1);
        int securedStart = Math.min(chunk.writerIndex(), 12 + (data.length > 1 ? data[1] & 0x3F : 0));
        try {
            int bodyEnd = crypto.verify(chunk, 0, securedStart);
            throw new AssertionError("a chunk the fuzzer made verified, body ending at " + bodyEnd);
        } catch (UaException refused) {
            if (refused.statusCode().value() != StatusCodes.BadSecurityChecksFailed) {
                throw refused;
            }
        } finally {
            chunk.release();
        }
    }
}
