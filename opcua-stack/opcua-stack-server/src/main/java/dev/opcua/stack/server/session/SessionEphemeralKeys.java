package dev.opcua.stack.server.session;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.ApplicationCertificates;
import dev.opcua.stack.core.security.EcdhHeaders;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.crypto.EccCrypto;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.structured.RequestHeader;
import java.security.KeyPair;

/**
 * The server's half of the session's ephemeral keys (Part 6, 6.8.2): when CreateSession or
 * ActivateSession asks with ECDHPolicyUri, a new ephemeral key pair on that ECC policy's curve answers in
 * the response's ECDHKey, signed with the server certificate of the curve, and the session keeps the pair
 * until the next answer; the EccEncryptedSecret of the next ActivateSession is encrypted for it. A key
 * is used for one secret at most: it is gone once a secret was decrypted with it.
 */
final class SessionEphemeralKeys {

    /** The pair a session returned last, kept on the session. */
    static final class Holder {
        private SecurityPolicy policy;
        private KeyPair pair;
    }

    private final ApplicationCertificates certificates;

    SessionEphemeralKeys(ApplicationCertificates certificates) {
        this.certificates = certificates;
    }

    /**
     * The response's AdditionalHeader: a new ephemeral key when the request asks one for an ECC policy the
     * server holds a certificate of; otherwise the null header.
     */
    ExtensionObject answer(Session session, RequestHeader request) {
        SecurityPolicy policy = EcdhHeaders.requestedPolicy(request.additionalHeader());
        if (policy == null) {
            return ExtensionObject.NULL;
        }
        ApplicationCertificate certificate = certificates.forPolicy(policy);
        if (certificate == null) {
            return ExtensionObject.NULL; // no key of that curve to sign with: the client learns it has none
        }
        KeyPair pair = EccCrypto.ephemeralKeyPair(policy);
        Holder holder = session.attachment(Holder.class, Holder::new);
        synchronized (holder) {
            holder.policy = policy;
            holder.pair = pair;
        }
        return EcdhHeaders.response(policy, pair, certificate.privateKey());
    }

    /**
     * Takes the pair the session returned last for {@code policy}, so that it serves one secret only.
     *
     * @throws UaException BadIdentityTokenInvalid when the session returned none for this policy
     */
    KeyPair take(Session session, SecurityPolicy policy) {
        Holder holder = session.attachment(Holder.class, Holder::new);
        synchronized (holder) {
            KeyPair pair = holder.pair;
            if (pair == null || holder.policy != policy) {
                throw new UaException(StatusCodes.BadIdentityTokenInvalid, "the session returned no ephemeral key"
                        + " for " + policy + ": ask with ECDHPolicyUri in the request header of CreateSession or"
                        + " ActivateSession (Part 6, 6.8.2)");
            }
            holder.pair = null;
            return pair;
        }
    }
}
