package dev.opcua.stack.core.security.crypto;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.SecurityPolicy;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The EccEncryptedSecret (Part 4, 7.40.2.5; Part 6, 6.8.3) that carries a user token secret (a password)
 * under an ECC security policy, where no key can encrypt: the sender makes an ephemeral key pair on the
 * policy's curve, agrees a secret with the receiver's ephemeral key (which the server returned in the
 * ECDHKey of CreateSession or ActivateSession, Part 6, 6.8.2), derives an AES key and IV from it with HKDF
 * (salt and info {@code L | "opcua-secret" | SenderPublicKey | ReceiverPublicKey}), encrypts the Nonce and
 * the Secret, and signs everything with its application certificate's key.
 *
 * <p>Layout, UA Binary: TypeId (NodeId of the EccEncryptedSecret DataType) | EncodingMask (1) | Length
 * (UInt32, the bytes after it) | SecurityPolicyUri | Certificate (ByteString, the sender's) | SigningTime |
 * KeyDataLength (UInt16) | KeyData: SenderPublicKey, ReceiverPublicKey (ByteStrings) | encrypted: Nonce,
 * Secret (ByteStrings), padding bytes of the padding's length, PayloadPaddingSize (UInt16) | Signature.
 */
public final class EccEncryptedSecret {

    /** The Binary TypeId: NodeId i=17546 in its four-byte form. */
    private static final byte[] TYPE_ID = {0x01, 0x00, (byte) (NodeIds.EccEncryptedSecret & 0xFF),
            (byte) (NodeIds.EccEncryptedSecret >>> 8)};
    private static final int BLOCK = 16;
    /** 100 ns ticks between 1601-01-01 and 1970-01-01, for SigningTime. */
    private static final long EPOCH_TICKS = 116_444_736_000_000_000L;

    private EccEncryptedSecret() {
    }

    /**
     * Encrypts {@code secret} for the owner of {@code receiverPublicKey}.
     *
     * @param signingKey the private key of the sender's application certificate (of the policy's curve)
     * @param senderCertificate the DER of that certificate (with its chain), or null when the receiver knows it
     * @param receiverPublicKey the receiver's ephemeral public key as the ECDHKey carried it (X | Y)
     * @param nonce the last ServerNonce of the session
     */
    public static byte[] encrypt(SecurityPolicy policy, PrivateKey signingKey, byte[] senderCertificate,
            byte[] receiverPublicKey, byte[] nonce, byte[] secret) {
        PublicKey receiver = EccCrypto.decodePublicKey(policy, receiverPublicKey);
        KeyPair ephemeral = EccCrypto.ephemeralKeyPair(policy);
        byte[] senderPublicKey = EccCrypto.encodePublicKey(policy, ephemeral.getPublic());
        byte[][] keyAndIv = keys(policy, EccCrypto.sharedSecret(policy, ephemeral.getPrivate(), receiver),
                senderPublicKey, receiverPublicKey);

        int baseLength = 4 + nonce.length + 4 + secret.length;
        int padding = (baseLength + 2) % BLOCK == 0 ? 0 : BLOCK - (baseLength + 2) % BLOCK;
        if (padding + secret.length < BLOCK) {
            padding += BLOCK; // a short secret is hidden in at least one block of padding
        }
        ByteBuffer payload = little(baseLength + padding + 2);
        byteString(payload, nonce);
        byteString(payload, secret);
        for (int i = 0; i < padding; i++) {
            payload.put((byte) padding);
        }
        payload.putShort((short) padding);

        byte[] uri = policy.uri().getBytes(StandardCharsets.UTF_8);
        int keyDataLength = 4 + senderPublicKey.length + 4 + receiverPublicKey.length;
        int signatureSize = policy.eccSignatureSize();
        int total = TYPE_ID.length + 1 + 4 + 4 + uri.length + 4 + length(senderCertificate) + 8 + 2
                + keyDataLength + payload.capacity() + signatureSize;
        ByteBuffer out = little(total);
        out.put(TYPE_ID).put((byte) 0x01).putInt(total - TYPE_ID.length - 1 - 4);
        out.putInt(uri.length).put(uri);
        byteString(out, senderCertificate);
        out.putLong(System.currentTimeMillis() * 10_000 + EPOCH_TICKS);
        out.putShort((short) keyDataLength);
        byteString(out, senderPublicKey);
        byteString(out, receiverPublicKey);
        out.put(aes(policy, Cipher.ENCRYPT_MODE, keyAndIv, payload.array()));
        byte[] signed = Arrays.copyOf(out.array(), out.position());
        out.put(AsymmetricCrypto.sign(policy, signingKey, signed));
        return out.array();
    }

    /**
     * Checks and decrypts an EccEncryptedSecret, returning the Secret.
     *
     * @param senderKey the public key of the sender's application certificate (the session's client certificate)
     * @param receiver our ephemeral key pair whose public half the sender used
     * @param expectedNonce the last ServerNonce the session returned
     * @throws UaException BadIdentityTokenInvalid naming what is wrong: the type, the policy, the lengths, the
     *         signature, the receiver key, the padding or the nonce
     */
    public static byte[] decrypt(SecurityPolicy policy, PublicKey senderKey, KeyPair receiver, byte[] expectedNonce,
            byte[] encoded) {
        try {
            ByteBuffer in = ByteBuffer.wrap(encoded).order(ByteOrder.LITTLE_ENDIAN);
            byte[] typeId = new byte[TYPE_ID.length];
            in.get(typeId);
            if (!Arrays.equals(typeId, TYPE_ID) || in.get() != 0x01) {
                throw invalid("it is not an EccEncryptedSecret (TypeId i=" + NodeIds.EccEncryptedSecret + ")");
            }
            long length = Integer.toUnsignedLong(in.getInt());
            int end = in.position() + (int) Math.min(length, Integer.MAX_VALUE);
            int signatureSize = policy.eccSignatureSize();
            if (length > encoded.length - in.position() || end - signatureSize <= in.position()) {
                throw invalid("its Length " + length + " does not fit its " + encoded.length + " bytes");
            }
            String uri = new String(byteString(in), StandardCharsets.UTF_8);
            if (!policy.uri().equals(uri)) {
                throw invalid("it names SecurityPolicy " + uri + ", the token policy is " + policy.uri());
            }
            byteString(in); // the Certificate: the session's client certificate is the one that signs
            in.getLong(); // SigningTime
            byte[] signed = Arrays.copyOf(encoded, end - signatureSize);
            byte[] signature = Arrays.copyOfRange(encoded, end - signatureSize, end);
            if (!AsymmetricCrypto.verify(policy, senderKey, signature, signed)) {
                throw invalid("its signature does not verify with the client certificate's key");
            }
            int keyDataLength = Short.toUnsignedInt(in.getShort());
            int keyDataStart = in.position();
            byte[] senderPublicKey = byteString(in);
            byte[] receiverPublicKey = byteString(in);
            if (in.position() - keyDataStart != keyDataLength) {
                throw invalid("its KeyDataLength " + keyDataLength + " differs from its KeyData");
            }
            if (!Arrays.equals(receiverPublicKey, EccCrypto.encodePublicKey(policy, receiver.getPublic()))) {
                throw invalid("it is encrypted for another ephemeral key than the one this session returned last");
            }
            PublicKey sender = EccCrypto.decodePublicKey(policy, senderPublicKey);
            byte[][] keyAndIv = keys(policy, EccCrypto.sharedSecret(policy, receiver.getPrivate(), sender),
                    senderPublicKey, receiverPublicKey);
            int payloadLength = end - signatureSize - in.position();
            if (payloadLength <= 0 || payloadLength % BLOCK != 0) {
                throw invalid("its encrypted payload of " + payloadLength + " bytes is not whole AES blocks");
            }
            byte[] ciphertext = new byte[payloadLength];
            in.get(ciphertext);
            ByteBuffer payload = ByteBuffer.wrap(aes(policy, Cipher.DECRYPT_MODE, keyAndIv, ciphertext))
                    .order(ByteOrder.LITTLE_ENDIAN);
            int padding = Short.toUnsignedInt(payload.getShort(payloadLength - 2));
            int contentEnd = payloadLength - 2 - padding;
            if (contentEnd < 8) {
                throw invalid("its padding of " + padding + " bytes is longer than its payload");
            }
            for (int i = contentEnd; i < payloadLength - 2; i++) {
                if (payload.get(i) != (byte) padding) {
                    throw invalid("its padding is malformed");
                }
            }
            payload.limit(contentEnd);
            byte[] nonce = byteString(payload);
            if (!Arrays.equals(nonce, expectedNonce)) {
                throw invalid("its Nonce is not the last serverNonce of the session");
            }
            byte[] secret = byteString(payload);
            Arrays.fill(payload.array(), (byte) 0);
            return secret;
        } catch (java.nio.BufferUnderflowException | IndexOutOfBoundsException | IllegalArgumentException e) {
            throw invalid("it is truncated or malformed (" + e.getClass().getSimpleName() + ")");
        }
    }

    /** The encrypting key and IV (Part 6, 6.8.3): HKDF over the shared secret with the secret salt as salt and info. */
    private static byte[][] keys(SecurityPolicy policy, byte[] sharedSecret, byte[] senderPublicKey,
            byte[] receiverPublicKey) {
        int keyLength = policy.encryptingKeyLength();
        int length = keyLength + BLOCK;
        byte[] salt = KeyDerivation.eccSalt(length, "opcua-secret", senderPublicKey, receiverPublicKey);
        byte[] bytes = KeyDerivation.hkdf(policy.keyDerivationMac(), salt, sharedSecret, salt, length);
        return new byte[][] {Arrays.copyOf(bytes, keyLength), Arrays.copyOfRange(bytes, keyLength, length)};
    }

    private static byte[] aes(SecurityPolicy policy, int mode, byte[][] keyAndIv, byte[] data) {
        try {
            Cipher cipher = Cipher.getInstance("AES/CBC/NoPadding");
            cipher.init(mode, new SecretKeySpec(keyAndIv[0], "AES"), new IvParameterSpec(keyAndIv[1]));
            return cipher.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new UaException(StatusCodes.BadIdentityTokenInvalid, "the EccEncryptedSecret of " + policy
                    + " cannot be " + (mode == Cipher.ENCRYPT_MODE ? "encrypted" : "decrypted") + ": " + e.getMessage());
        }
    }

    private static UaException invalid(String why) {
        return new UaException(StatusCodes.BadIdentityTokenInvalid, "the EccEncryptedSecret is refused: " + why);
    }

    private static ByteBuffer little(int capacity) {
        return ByteBuffer.allocate(capacity).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static int length(byte[] bytes) {
        return bytes == null ? 0 : bytes.length;
    }

    private static void byteString(ByteBuffer out, byte[] bytes) {
        if (bytes == null) {
            out.putInt(-1);
        } else {
            out.putInt(bytes.length).put(bytes);
        }
    }

    private static byte[] byteString(ByteBuffer in) {
        int n = in.getInt();
        if (n < 0) {
            return new byte[0];
        }
        if (n > in.remaining()) {
            throw new IllegalArgumentException("a ByteString of " + n + " bytes runs past the end");
        }
        byte[] bytes = new byte[n];
        in.get(bytes);
        return bytes;
    }
}
