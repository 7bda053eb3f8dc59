package dev.opcua.stack.core.security;

import dev.opcua.stack.core.security.crypto.AsymmetricCrypto;
import dev.opcua.stack.core.security.crypto.EccCrypto;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.AdditionalParametersType;
import dev.opcua.stack.core.types.structured.EphemeralKeyType;
import dev.opcua.stack.core.types.structured.KeyValuePair;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;

/**
 * The session's ephemeral key exchange of the ECC policies (Part 6, 6.8.2; Part 4, 7.1 and 7.15): a
 * client that will encrypt a user token secret with an ECC policy puts {@code ECDHPolicyUri} (the policy's
 * URI) into the AdditionalHeader (an AdditionalParametersType) of CreateSession and ActivateSession; the
 * server answers with {@code ECDHKey}, an EphemeralKeyType holding a new ephemeral public key on the policy's
 * curve and its signature by the server's certificate of that curve.
 */
public final class EcdhHeaders {

    static final QualifiedName POLICY_URI = QualifiedName.of(0, "ECDHPolicyUri");
    static final QualifiedName KEY = QualifiedName.of(0, "ECDHKey");

    private EcdhHeaders() {
    }

    /** The client's request header entry asking for an ephemeral key for {@code policy}. */
    public static ExtensionObject request(SecurityPolicy policy) {
        return ExtensionObject.of(new AdditionalParametersType(new KeyValuePair[] {
                new KeyValuePair(POLICY_URI, Variant.ofString(policy.uri()))}));
    }

    /** The ECC policy a request header asks an ephemeral key for; null when it asks none or names no ECC policy. */
    public static SecurityPolicy requestedPolicy(ExtensionObject additionalHeader) {
        Object value = parameter(additionalHeader, POLICY_URI);
        SecurityPolicy policy = value instanceof String uri ? SecurityPolicy.fromUri(uri) : null;
        return policy != null && policy.isEcc() ? policy : null;
    }

    /** The server's response header: the policy and the new key's public half, signed with {@code signingKey}. */
    public static ExtensionObject response(SecurityPolicy policy, KeyPair ephemeral, PrivateKey signingKey) {
        byte[] publicKey = EccCrypto.encodePublicKey(policy, ephemeral.getPublic());
        EphemeralKeyType key = new EphemeralKeyType(ByteString.wrap(publicKey),
                ByteString.wrap(AsymmetricCrypto.sign(policy, signingKey, publicKey)));
        return ExtensionObject.of(new AdditionalParametersType(new KeyValuePair[] {
                new KeyValuePair(POLICY_URI, Variant.ofString(policy.uri())),
                new KeyValuePair(KEY, Variant.of(key))}));
    }

    /** The EphemeralKeyType a response header carries; null when it carries none. */
    public static EphemeralKeyType key(ExtensionObject additionalHeader) {
        Object value = parameter(additionalHeader, KEY);
        if (value instanceof ExtensionObject eo && eo.decoded() instanceof EphemeralKeyType key) {
            return key;
        }
        return null;
    }

    /** Whether the key's signature verifies with the server certificate's key under {@code policy}. */
    public static boolean verifies(SecurityPolicy policy, EphemeralKeyType key, PublicKey serverKey) {
        return key.publicKey() != null && key.signature() != null && !key.publicKey().isNull()
                && AsymmetricCrypto.verify(policy, serverKey, key.signature().unsafeBytes(),
                        key.publicKey().unsafeBytes());
    }

    private static Object parameter(ExtensionObject header, QualifiedName name) {
        if (header == null || !(header.decoded() instanceof AdditionalParametersType parameters)
                || parameters.parameters() == null) {
            return null;
        }
        for (KeyValuePair pair : parameters.parameters()) {
            if (pair != null && name.equals(pair.key()) && pair.value() != null) {
                return pair.value().value();
            }
        }
        return null;
    }
}
