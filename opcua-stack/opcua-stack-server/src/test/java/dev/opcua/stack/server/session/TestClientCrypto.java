package dev.opcua.stack.server.session;

import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.crypto.AsymmetricCrypto;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.structured.SignatureData;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.X509Certificate;

/** What a client computes for CreateSession and ActivateSession (Part 4, 5.6.3, 7.41.2.2), for tests. */
final class TestClientCrypto {

    private TestClientCrypto() {
    }

    /** A signature over the server certificate and nonce, as clientSignature and userTokenSignature carry it. */
    static SignatureData sign(SecurityPolicy policy, PrivateKey key, ByteString serverCertificate,
            ByteString serverNonce) {
        return new SignatureData(policy.asymmetricSignatureUri(), ByteString.wrap(AsymmetricCrypto.sign(policy, key,
                serverCertificate.unsafeBytes(), serverNonce.unsafeBytes())));
    }

    /** The legacy secret: UInt32 length of password + nonce, the password, the nonce, then {@code padding} bytes. */
    static byte[] legacySecret(String password, ByteString serverNonce, byte[] padding) {
        byte[] secret = password.getBytes(StandardCharsets.UTF_8);
        byte[] nonce = serverNonce.unsafeBytes();
        int length = secret.length + nonce.length;
        byte[] plain = new byte[4 + length + padding.length];
        plain[0] = (byte) length;
        plain[1] = (byte) (length >>> 8);
        plain[2] = (byte) (length >>> 16);
        plain[3] = (byte) (length >>> 24);
        System.arraycopy(secret, 0, plain, 4, secret.length);
        System.arraycopy(nonce, 0, plain, 4 + secret.length, nonce.length);
        System.arraycopy(padding, 0, plain, 4 + length, padding.length);
        return plain;
    }

    /** A password encrypted for the server in the legacy secret format. */
    static ByteString encryptedPassword(SecurityPolicy policy, X509Certificate server, String password,
            ByteString serverNonce) {
        return encrypt(policy, server.getPublicKey(), legacySecret(password, serverNonce, new byte[0]));
    }

    static ByteString encrypt(SecurityPolicy policy, PublicKey key, byte[] plaintext) {
        return ByteString.wrap(AsymmetricCrypto.encrypt(policy, key, plaintext));
    }
}
