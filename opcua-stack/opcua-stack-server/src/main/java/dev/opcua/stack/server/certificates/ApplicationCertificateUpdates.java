package dev.opcua.stack.server.certificates;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.ApplicationCertificates;
import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.security.pki.CertificateLoader;
import dev.opcua.stack.core.security.pki.PkiCertificateValidator;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.security.pki.TrustList;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.session.Session;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's own certificate under push management (Part 12, 7.10): CreateSigningRequest (7.10.10) with the
 * current key or a new one kept (in own/private, across restarts) until a certificate for it arrives, UpdateCertificate (7.10.5), which checks
 * the new certificate and holds it until ApplyChanges (7.10.9) puts it in the slot of its type
 * and writes it to the PKI directory's own/ (so that it is kept across a restart), and GetCertificates
 * (7.10.13). Channels open before keep the certificate they were opened with; new ones get the new one.
 *
 * <p>A pending update is a transaction of the session that made it: another session's UpdateCertificate or
 * ApplyChanges is Bad_TransactionPending until it is applied or that session closes. Thread-safe.
 */
public final class ApplicationCertificateUpdates {

    private static final Logger log = LoggerFactory.getLogger(ApplicationCertificateUpdates.class);

    /** The only CertificateGroup: DefaultApplicationGroup (Part 12, 7.8.3.3). */
    static final NodeId DEFAULT_APPLICATION_GROUP =
            NodeId.ns0(NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup);
    /** The least entropy a caller gives with regeneratePrivateKey (Part 12, 7.10.10 nonce). */
    static final int MIN_NONCE_LENGTH = 32;

    private final ApplicationCertificates certificates;
    private final String applicationUri;
    private final String applicationName;
    private final PkiDirectory pki;
    private final SecureRandom random = new SecureRandom();

    /** Keys made by CreateSigningRequest, one per type, waiting for their certificates; also in {@link PkiDirectory#pendingKeyFile}. */
    private final Map<CertificateType, PrivateKey> pendingKeys = new EnumMap<>(CertificateType.class);
    /** A checked certificate waiting for ApplyChanges, and the session whose transaction it is. */
    private ApplicationCertificate pendingCertificate;
    private Session pendingOwner;

    /** @param certificates the server's certificates, one per type; each type held can be renewed */
    public ApplicationCertificateUpdates(ApplicationCertificates certificates, String applicationUri,
            String applicationName, PkiDirectory pki) {
        this.certificates = certificates;
        this.applicationUri = applicationUri;
        this.applicationName = applicationName;
        this.pki = pki;
        for (CertificateType kind : certificates.types()) {
            PrivateKey key = loadPendingKey(kind);
            if (key != null) {
                pendingKeys.put(kind, key);
            }
        }
    }

    /**
     * CreateSigningRequest: a PKCS #10 request for the server's application URI and host names, with
     * {@code subjectName} or the current subject, signed with the current key or, with
     * {@code regeneratePrivateKey}, a new one (which replaces any earlier pending key).
     *
     * @throws UaException BadInvalidArgument for another group or type, a subject that does not parse, or a
     *         nonce shorter than 32 bytes with a new key
     */
    public synchronized byte[] createSigningRequest(NodeId groupId, NodeId typeId, String subjectName,
            boolean regeneratePrivateKey, byte[] nonce) {
        requireGroup(groupId, "CreateSigningRequest");
        PushCertificateType type = type(typeId, "CreateSigningRequest");
        ApplicationCertificate current = current(type);
        KeyPair keys;
        if (regeneratePrivateKey) {
            if (nonce == null || nonce.length < MIN_NONCE_LENGTH) {
                throw new UaException(StatusCodes.BadInvalidArgument, "CreateSigningRequest with a new key needs a "
                        + "nonce of at least " + MIN_NONCE_LENGTH + " bytes (Part 12, 7.10.10), got "
                        + (nonce == null ? 0 : nonce.length));
            }
            random.setSeed(nonce); // adds to the generator's entropy, never replaces it
            keys = type.keyGenerator().apply(current.certificate().getPublicKey(), random);
        } else {
            keys = new KeyPair(current.certificate().getPublicKey(), current.privateKey());
        }
        byte[] request = SigningRequests.create(current.certificate(), subjectName, applicationUri, keys,
                type.signatureAlgorithm());
        if (regeneratePrivateKey) {
            // kept across a restart: the CA may answer after one (Part 12, 7.10.10)
            CertificateLoader.writePrivateKeyPem(keys.getPrivate(), pki.pendingKeyFile(type.kind(), applicationName));
            pendingKeys.put(type.kind(), keys.getPrivate());
        }
        log.info("certificate signing request made for {} ({}, {} key)", applicationUri, type.name(),
                regeneratePrivateKey ? "a new" : "the current");
        return request;
    }

    /**
     * UpdateCertificate: checks the certificate and keeps it for ApplyChanges.
     *
     * @return applyChangesRequired: always true, the certificate is used after ApplyChanges
     * @throws UaException BadInvalidArgument for another group or type, BadTransactionPending while another
     *         session's update waits, BadCertificateInvalid for what does not parse or does not fit the type,
     *         BadNotSupported for a key format other than PEM or PFX, BadSecurityChecksFailed when the key does
     *         not match, BadCertificateUriInvalid for another application URI, a validation status
     */
    public synchronized boolean updateCertificate(Session session, NodeId groupId, NodeId typeId, byte[] certificate,
            byte[][] issuerCertificates, String privateKeyFormat, byte[] privateKey) {
        requireGroup(groupId, "UpdateCertificate");
        requireNoOtherTransaction(session, "UpdateCertificate");
        PushCertificateType type = type(typeId, "UpdateCertificate");
        ApplicationCertificate current = current(type);
        X509Certificate next = TrustListCodec.parseCertificateChain(certificate, "UpdateCertificate certificate")
                .get(0);
        List<X509Certificate> issuers = new ArrayList<>();
        for (int i = 0; i < issuerCertificates.length; i++) {
            issuers.addAll(TrustListCodec.parseCertificateChain(issuerCertificates[i],
                    "UpdateCertificate issuerCertificates[" + i + "]"));
        }
        if (!type.fits().test(next.getPublicKey())) {
            throw new UaException(StatusCodes.BadCertificateInvalid, "the new certificate's "
                    + next.getPublicKey().getAlgorithm() + " key does not fit " + type.name());
        }
        PrivateKey key = keyFor(next, current, pendingKeys.get(type.kind()), privateKeyFormat, privateKey);
        PkiCertificateValidator.checkApplicationUri(next, applicationUri);
        List<X509Certificate> chain = new ArrayList<>();
        chain.add(next);
        chain.addAll(issuers);
        // the issuers given are the chain the administrator vouches for: trusted for this check only
        TrustList trust = pki.trustList();
        List<X509Certificate> trusted = new ArrayList<>(trust.trustedCertificates());
        trusted.addAll(issuers);
        CertificateChecks.validate(chain, new TrustList(trusted, trust.issuerCertificates(), trust.trustedCrls(),
                trust.issuerCrls()), "the new application certificate");
        pendingCertificate = new ApplicationCertificate(next, issuers, key);
        pendingOwner = session;
        log.info("UpdateCertificate accepted {}; it is used from ApplyChanges on", pendingCertificate);
        return true;
    }

    /**
     * ApplyChanges: writes the pending certificate to own/ and puts it in use; nothing to do without one.
     *
     * @throws UaException BadTransactionPending when the pending update is another session's
     */
    public synchronized void applyChanges(Session session) {
        requireNoOtherTransaction(session, "ApplyChanges");
        ApplicationCertificate next = pendingCertificate;
        if (next == null) {
            return;
        }
        pki.saveApplicationCertificate(next, applicationName);
        certificates.replace(next);
        if (next.privateKey().equals(pendingKeys.get(next.type()))) {
            pendingKeys.remove(next.type());
            deletePendingKey(next.type());
        }
        pendingCertificate = null;
        pendingOwner = null;
        log.info("ApplyChanges: application certificate replaced by {}; open channels keep theirs", next);
    }

    /** One certificate of a group and its type (Part 12, 7.10.13 GetCertificates). */
    public record GroupCertificate(NodeId typeId, ByteString certificate) {
    }

    /** GetCertificates (Part 12, 7.10.13): the certificates of the group in use now, with their types. */
    public synchronized List<GroupCertificate> certificates(NodeId groupId) {
        requireGroup(groupId, "GetCertificates");
        List<GroupCertificate> all = new ArrayList<>();
        for (CertificateType kind : certificates.types()) {
            all.add(new GroupCertificate(kind.typeId(), certificates.get(kind).der()));
        }
        return all;
    }

    /** The certificate types the group holds now, for its CertificateTypes property (Part 12, 7.8.3.1). */
    public NodeId[] heldTypes() {
        return certificates.types().stream().map(CertificateType::typeId).toArray(NodeId[]::new);
    }

    private ApplicationCertificate current(PushCertificateType type) {
        ApplicationCertificate current = certificates.get(type.kind());
        if (current == null) {
            throw new UaException(StatusCodes.BadInvalidArgument, "the server holds no " + type.name()
                    + " certificate to renew; it holds " + certificates.types());
        }
        return current;
    }

    private void requireNoOtherTransaction(Session session, String method) {
        if (pendingOwner != null && pendingOwner != session) {
            if (pendingOwner.isClosed()) {
                log.info("discarding the pending certificate update of closed session {}", pendingOwner.sessionId());
                pendingCertificate = null;
                pendingOwner = null;
            } else {
                throw new UaException(StatusCodes.BadTransactionPending, method + ": session "
                        + pendingOwner.sessionId() + " has a certificate update waiting for ApplyChanges");
            }
        }
    }

    private PrivateKey loadPendingKey(CertificateType kind) {
        Path file = pki.pendingKeyFile(kind, applicationName);
        if (!Files.exists(file)) {
            return null;
        }
        try {
            PrivateKey key = CertificateLoader.readPrivateKey(file, null);
            log.info("a key of an earlier CreateSigningRequest waits in {} for its certificate", file);
            return key;
        } catch (IllegalArgumentException e) {
            log.warn("ignoring the unreadable pending key {}: {}", file, e.getMessage());
            return null;
        }
    }

    private void deletePendingKey(CertificateType kind) {
        Path file = pki.pendingKeyFile(kind, applicationName);
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.warn("cannot delete the used pending key {}: {}", file, e.toString());
        }
    }

    private static void requireGroup(NodeId groupId, String method) {
        if (groupId != null && !DEFAULT_APPLICATION_GROUP.equals(groupId)) {
            throw new UaException(StatusCodes.BadInvalidArgument, method + ": certificate group " + groupId
                    + " is not this server's; it has DefaultApplicationGroup " + DEFAULT_APPLICATION_GROUP + " only");
        }
    }

    /** The type asked for, or for null the RSA one (the group's default). */
    private static PushCertificateType type(NodeId typeId, String method) {
        if (typeId == null || typeId.isNull()) {
            return CertificateTypes.RSA_SHA256;
        }
        return CertificateTypes.byId(typeId).orElseThrow(() -> new UaException(StatusCodes.BadInvalidArgument,
                method + ": certificate type " + typeId + " is not one of "
                        + CertificateTypes.SUPPORTED.stream().map(PushCertificateType::name).toList()));
    }

    /**
     * The private key of {@code next}: the one given, else the pending key of CreateSigningRequest, else the
     * current key, whichever matches.
     */
    private static PrivateKey keyFor(X509Certificate next, ApplicationCertificate current, PrivateKey pendingKey,
            String format, byte[] given) {
        if (given != null && given.length > 0) {
            PrivateKey key = parseKey(format, given);
            if (!CertificateLoader.keyMatches(next, key)) {
                throw new UaException(StatusCodes.BadSecurityChecksFailed, "the private key given does not match the "
                        + "new certificate's public key");
            }
            return key;
        }
        if (pendingKey != null && CertificateLoader.keyMatches(next, pendingKey)) {
            return pendingKey;
        }
        if (CertificateLoader.keyMatches(next, current.privateKey())) {
            return current.privateKey();
        }
        throw new UaException(StatusCodes.BadSecurityChecksFailed, "the new certificate's public key matches neither "
                + "the server's key nor a key of CreateSigningRequest, and no private key was given");
    }

    private static PrivateKey parseKey(String format, byte[] bytes) {
        String f = format == null ? "" : format.toUpperCase(Locale.ROOT);
        try {
            return switch (f) {
                case "PEM" -> CertificateLoader.readPrivateKey(bytes, "UpdateCertificate privateKey (PEM)", null);
                case "PFX" -> CertificateLoader.loadKeyStore(bytes, "UpdateCertificate privateKey (PFX)", new char[0],
                        null, new char[0]).privateKey();
                default -> throw new UaException(StatusCodes.BadNotSupported, "private key format '" + format
                        + "' is not supported; SupportedPrivateKeyFormats are PEM and PFX");
            };
        } catch (IllegalArgumentException e) {
            throw new UaException(StatusCode.of(StatusCodes.BadCertificateInvalid), "the private key does not parse as " + f + ": "
                    + e.getMessage(), e);
        }
    }
}
