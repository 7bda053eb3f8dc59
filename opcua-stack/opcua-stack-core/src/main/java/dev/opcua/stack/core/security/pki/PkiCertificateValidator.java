package dev.opcua.stack.core.security.pki;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.core.security.crypto.BouncyCastle;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509CRL;
import java.security.cert.X509CRLEntry;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPublicKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * Decides whether a peer's application instance certificate is trusted (Part 4, 6.1.3), against a
 * {@link PkiDirectory} (reread when it changes) or a fixed {@link TrustList}.
 *
 * <p>The chain is built from the certificates the peer sent, {@code issuers/} and {@code trusted/}; then the
 * steps of the table in Part 4, 6.1.3 run in the table's order, each over the whole chain (leaf first), and the first
 * failure is thrown:
 * <ol>
 *   <li>certificate structure: v3, no unknown critical extension, readable SAN - BadCertificateInvalid</li>
 *   <li>build certificate chain up to a self-signed root - BadCertificateChainIncomplete</li>
 *   <li>signature of every link - BadSecurityChecksFailed</li>
 *   <li>security policy: RSA key shorter than {@code minKeyBits}, SHA-1 (or MD5) signature -
 *       BadCertificatePolicyCheckFailed</li>
 *   <li>trust list: the certificate or a CA of its chain in trusted/ - BadCertificateUntrusted (the
 *       certificate is copied to rejected/)</li>
 *   <li>validity period - BadCertificateTimeInvalid, BadCertificateIssuerTimeInvalid</li>
 *   <li>host name and application URI: depend on the caller's context, see {@link #checkHostName} and
 *       {@link #checkApplicationUri}</li>
 *   <li>certificate usage - BadCertificateUseNotAllowed, BadCertificateIssuerUseNotAllowed</li>
 *   <li>find revocation list of every CA - BadCertificateRevocationUnknown,
 *       BadCertificateIssuerRevocationUnknown</li>
 *   <li>revocation check - BadCertificateRevoked, BadCertificateIssuerRevoked</li>
 * </ol>
 *
 * <p>Every failure is logged once per (thumbprint, status); a peer retrying every second does not flood the
 * log. Thread-safe.
 */
public final class PkiCertificateValidator implements CertificateValidator {

    private static final Logger LOG = LoggerFactory.getLogger(PkiCertificateValidator.class);

    /** The longest chain built: a leaf and nine CAs. */
    static final int MAX_CHAIN_LENGTH = 10;
    /** (thumbprint, status) pairs remembered for logging once. */
    static final int LOGGED_FAILURES_CAPACITY = 4096;

    // extensions this validator understands; any other critical one makes the certificate unusable
    private static final Set<String> KNOWN_CRITICAL_EXTENSIONS = Set.of(
            "2.5.29.14", // subject key identifier
            "2.5.29.15", // key usage
            "2.5.29.17", // subject alternative name
            "2.5.29.18", // issuer alternative name
            "2.5.29.19", // basic constraints
            "2.5.29.35", // authority key identifier
            "2.5.29.37"); // extended key usage
    private static final Set<String> SHA1_SIGNATURES = Set.of(
            "1.2.840.113549.1.1.5", // sha1WithRSAEncryption
            "1.3.14.3.2.29", // sha1WithRSA (OIW)
            "1.2.840.10045.4.1", // ecdsa-with-SHA1
            "1.2.840.10040.4.3"); // dsa-with-sha1
    private static final Set<String> BROKEN_SIGNATURES = Set.of(
            "1.2.840.113549.1.1.2", // md2WithRSAEncryption
            "1.2.840.113549.1.1.4"); // md5WithRSAEncryption
    private static final int SAN_DNS = 2;
    private static final int SAN_URI = 6;
    private static final int SAN_IP = 7;

    private final Supplier<TrustList> trustLists;
    private final PkiDirectory directory;
    private final ValidationOptions options;
    private final FailureLog logged = new FailureLog(LOGGED_FAILURES_CAPACITY);

    /** Validates against a PKI directory, rereading it when it changes; untrusted certificates go to rejected/. */
    public PkiCertificateValidator(PkiDirectory directory, ValidationOptions options) {
        this(Objects.requireNonNull(directory, "directory")::trustList, directory, options);
    }

    /** Validates against a fixed trust list (tests, or trust material held elsewhere); nothing is written. */
    public PkiCertificateValidator(TrustList trustList, ValidationOptions options) {
        this(constant(Objects.requireNonNull(trustList, "trustList")), null, options);
    }

    private PkiCertificateValidator(Supplier<TrustList> trustLists, PkiDirectory directory, ValidationOptions options) {
        this.trustLists = trustLists;
        this.directory = directory;
        this.options = Objects.requireNonNull(options, "options");
        if (options.autoAcceptUntrusted()) {
            LOG.warn("certificate validation accepts UNTRUSTED certificates (auto-accept-untrusted): any peer with a "
                    + "valid certificate can connect; use this for development only");
        }
    }

    private static Supplier<TrustList> constant(TrustList trustList) {
        return () -> trustList;
    }

    public ValidationOptions options() {
        return options;
    }

    @Override
    public void validate(List<X509Certificate> chain) {
        if (chain == null || chain.isEmpty()) {
            throw new UaException(StatusCodes.BadCertificateInvalid, "no certificate to validate");
        }
        try {
            boolean autoAccepted = check(chain);
            if (autoAccepted && logged.firstTime(X509Names.thumbprintHex(chain.get(0)), StatusCodes.Good)) {
                LOG.warn("accepted untrusted certificate {} because auto-accept-untrusted is on",
                        X509Names.describe(chain.get(0)));
            }
        } catch (UaException e) {
            logFailure(chain.get(0), e);
            throw e;
        }
    }

    /** Runs the steps; returns whether the chain was accepted only because untrusted ones are auto-accepted. */
    private boolean check(List<X509Certificate> sent) {
        TrustList trust = trustLists.get();
        X509Certificate leaf = sent.get(0);

        // 1. certificate structure of the leaf, then (2.) build the chain and check the structure of its CAs;
        // certificates the peer sent that belong to no chain are ignored
        checkStructure(leaf, true);
        Chain chain = buildChain(sent, trust);
        for (int i = 1; i < chain.size(); i++) {
            checkStructure(chain.get(i), false);
        }
        // 3. signatures
        for (int i = 0; i < chain.size(); i++) {
            if (!chain.signatureVerified(i)) {
                X509Certificate signer = chain.issuerOf(i);
                throw new UaException(StatusCodes.BadSecurityChecksFailed, "the signature of "
                        + X509Names.describe(chain.get(i)) + " does not verify with the key of "
                        + (signer == chain.get(i) ? "the certificate itself (self-signed)"
                                : X509Names.describe(signer)));
            }
        }
        // 4. security policy
        for (int i = 0; i < chain.size(); i++) {
            checkPolicy(chain, i);
        }
        // 5. trust list
        boolean trusted = false;
        for (X509Certificate c : chain.certificates()) {
            trusted |= trust.isTrusted(c);
        }
        boolean autoAccepted = false;
        if (!trusted) {
            if (options.autoAcceptUntrusted()) {
                autoAccepted = true;
            } else {
                throw untrusted(leaf, chain);
            }
        }
        // 6. validity period
        Date now = Date.from(options.clock().instant());
        for (int i = 0; i < chain.size(); i++) {
            checkValidity(chain.get(i), i, now);
        }
        // 7, 8. host name and URI depend on the caller (checkHostName, checkApplicationUri)
        // 9. certificate usage
        checkLeafUsage(leaf);
        for (int i = 1; i < chain.size(); i++) {
            checkIssuerUsage(chain.get(i), i);
        }
        // 10. find the revocation lists: every CA that issued a certificate of the chain needs one
        X509CRL[] crls = new X509CRL[chain.size()];
        for (int i = 0; i < chain.size() - 1; i++) {
            crls[i] = findCrl(chain.get(i + 1), trust);
            if (crls[i] == null) {
                throw new UaException(i == 0 ? StatusCodes.BadCertificateRevocationUnknown
                        : StatusCodes.BadCertificateIssuerRevocationUnknown, "no CRL of the CA "
                        + X509Names.describe(chain.get(i + 1)) + " (issuer of " + X509Names.describe(chain.get(i))
                        + ") in trusted/crl or issuers/crl");
            }
        }
        // 11. revocation check
        for (int i = 0; i < chain.size() - 1; i++) {
            X509CRLEntry entry = crls[i].getRevokedCertificate(chain.get(i));
            if (entry != null) {
                throw new UaException(i == 0 ? StatusCodes.BadCertificateRevoked
                        : StatusCodes.BadCertificateIssuerRevoked, X509Names.describe(chain.get(i))
                        + " was revoked on " + entry.getRevocationDate().toInstant() + " by the CRL of "
                        + X509Names.describe(chain.get(i + 1)));
            }
        }
        return autoAccepted;
    }

    // ---- steps

    private static void checkStructure(X509Certificate c, boolean leaf) {
        if (leaf && c.getVersion() != 3) {
            throw new UaException(StatusCodes.BadCertificateInvalid, X509Names.describe(c) + " is an X.509 v"
                    + c.getVersion() + " certificate; application certificates must be v3");
        }
        Set<String> critical = c.getCriticalExtensionOIDs();
        if (critical != null) {
            Set<String> unknown = new HashSet<>(critical);
            unknown.removeAll(KNOWN_CRITICAL_EXTENSIONS);
            if (!unknown.isEmpty()) {
                throw new UaException(StatusCodes.BadCertificateInvalid, X509Names.describe(c)
                        + " has critical extensions this validator does not process: " + unknown);
            }
        }
        if (leaf) {
            try {
                c.getSubjectAlternativeNames();
            } catch (CertificateParsingException e) {
                throw new UaException(StatusCodes.BadCertificateInvalid, "the subject alternative name of "
                        + X509Names.describe(c) + " cannot be parsed: " + e.getMessage());
            }
        }
    }

    private Chain buildChain(List<X509Certificate> sent, TrustList trust) {
        Chain chain = new Chain(sent.get(0));
        while (!X509Names.selfIssued(chain.last())) {
            X509Certificate child = chain.last();
            if (chain.size() >= MAX_CHAIN_LENGTH) {
                throw new UaException(StatusCodes.BadCertificateChainIncomplete, "the chain of "
                        + X509Names.describe(sent.get(0)) + " has more than " + MAX_CHAIN_LENGTH + " certificates");
            }
            // the administrator's copies first: trust is decided on them, not on what the peer sent
            List<X509Certificate> candidates = new ArrayList<>(trust.withSubject(child.getIssuerX500Principal()));
            for (int i = 1; i < sent.size(); i++) {
                X509Certificate s = sent.get(i);
                if (s.getSubjectX500Principal().equals(child.getIssuerX500Principal()) && !candidates.contains(s)) {
                    candidates.add(s);
                }
            }
            candidates.removeIf(chain::contains);
            if (candidates.isEmpty()) {
                throw new UaException(StatusCodes.BadCertificateChainIncomplete, "the issuer '"
                        + child.getIssuerX500Principal().getName() + "' of " + X509Names.describe(child)
                        + " is neither among the " + (sent.size() - 1) + " issuer certificates sent nor in "
                        + "trusted/certs or issuers/certs");
            }
            chain.add(pickIssuer(child, candidates));
        }
        return chain;
    }

    /** The candidate whose key verifies the child's signature; else the best by key identifier (step 3 fails). */
    private static Issuer pickIssuer(X509Certificate child, List<X509Certificate> candidates) {
        byte[] authorityKeyId = X509Names.authorityKeyId(child);
        List<X509Certificate> ordered = new ArrayList<>();
        for (X509Certificate c : candidates) {
            byte[] ski = X509Names.subjectKeyId(c);
            if (authorityKeyId == null || ski == null || Arrays.equals(authorityKeyId, ski)) {
                ordered.add(c);
            }
        }
        for (X509Certificate c : candidates) {
            if (!ordered.contains(c)) {
                ordered.add(c);
            }
        }
        for (X509Certificate c : ordered) {
            if (verifies(child, c.getPublicKey())) {
                return new Issuer(c, true);
            }
        }
        return new Issuer(ordered.get(0), false);
    }

    private void checkPolicy(Chain chain, int i) {
        X509Certificate c = chain.get(i);
        if (c.getPublicKey() instanceof RSAPublicKey rsa && rsa.getModulus().bitLength() < options.minKeyBits()) {
            throw new UaException(StatusCodes.BadCertificatePolicyCheckFailed, X509Names.describe(c) + " has a "
                    + rsa.getModulus().bitLength() + "-bit RSA key; at least " + options.minKeyBits()
                    + " bits are required");
        }
        // a root's signature over itself protects nothing: its trust comes from the store, not the signature
        boolean root = i == chain.size() - 1 && i > 0;
        String algorithm = c.getSigAlgOID();
        if (!root && (BROKEN_SIGNATURES.contains(algorithm)
                || (options.rejectSha1Signed() && SHA1_SIGNATURES.contains(algorithm)))) {
            throw new UaException(StatusCodes.BadCertificatePolicyCheckFailed, X509Names.describe(c)
                    + " is signed with " + c.getSigAlgName() + ", which the security policy rejects");
        }
    }

    private UaException untrusted(X509Certificate leaf, Chain chain) {
        // the message may reach the peer: it names the store, not this machine's paths (reject() logs those)
        String copy = "";
        if (directory != null) {
            try {
                directory.reject(leaf);
                copy = " (a copy is in rejected/)";
            } catch (RuntimeException e) {
                LOG.warn("cannot copy rejected certificate {} to {}: {}", X509Names.describe(leaf),
                        directory.rejectedDir(), e.toString());
            }
        }
        String which = chain.size() == 1 ? "it is not in trusted/certs"
                : "neither it nor any of its " + (chain.size() - 1) + " issuers is in trusted/certs";
        return new UaException(StatusCodes.BadCertificateUntrusted, X509Names.describe(leaf) + " is not trusted: "
                + which + copy);
    }

    private static void checkValidity(X509Certificate c, int i, Date now) {
        int status = i == 0 ? StatusCodes.BadCertificateTimeInvalid : StatusCodes.BadCertificateIssuerTimeInvalid;
        String what = i == 0 ? "" : "issuer ";
        try {
            c.checkValidity(now);
        } catch (CertificateExpiredException e) {
            throw new UaException(status, what + X509Names.describe(c) + " expired on " + c.getNotAfter().toInstant());
        } catch (CertificateNotYetValidException e) {
            throw new UaException(status, what + X509Names.describe(c) + " is not valid before "
                    + c.getNotBefore().toInstant());
        }
    }

    private static void checkLeafUsage(X509Certificate c) {
        if (c.getBasicConstraints() >= 0 && !X509Names.selfIssued(c)) {
            throw new UaException(StatusCodes.BadCertificateUseNotAllowed, X509Names.describe(c)
                    + " is a CA certificate (basic constraints CA=true), not an application certificate");
        }
        boolean[] usage = c.getKeyUsage();
        if (usage == null) {
            return;
        }
        List<String> missing = new ArrayList<>();
        if (!bit(usage, 0)) {
            missing.add("digitalSignature");
        }
        // an EC key only signs and agrees keys (Part 6, 6.2.2); an RSA key also encrypts
        if (!"EC".equals(c.getPublicKey().getAlgorithm()) && !bit(usage, 2) && !bit(usage, 3)) {
            missing.add("keyEncipherment or dataEncipherment");
        }
        if (!missing.isEmpty()) {
            throw new UaException(StatusCodes.BadCertificateUseNotAllowed, "the key usage of "
                    + X509Names.describe(c) + " lacks " + String.join(" and ", missing));
        }
    }

    private static void checkIssuerUsage(X509Certificate c, int i) {
        int pathLength = c.getBasicConstraints();
        if (pathLength < 0) {
            throw new UaException(StatusCodes.BadCertificateIssuerUseNotAllowed, "issuer " + X509Names.describe(c)
                    + " is not a CA certificate (basic constraints CA=false)");
        }
        boolean[] usage = c.getKeyUsage();
        if (usage != null && !bit(usage, 5)) {
            throw new UaException(StatusCodes.BadCertificateIssuerUseNotAllowed, "the key usage of issuer "
                    + X509Names.describe(c) + " lacks keyCertSign");
        }
        // CAs between this one and the leaf
        if (i - 1 > pathLength) {
            throw new UaException(StatusCodes.BadCertificateIssuerUseNotAllowed, "issuer " + X509Names.describe(c)
                    + " allows " + pathLength + " CAs below it, the chain has " + (i - 1));
        }
    }

    /** The newest CRL issued and signed by {@code ca}, from the CRL directory of the store it came from. */
    private static X509CRL findCrl(X509Certificate ca, TrustList trust) {
        List<X509CRL> candidates = new ArrayList<>();
        boolean inTrusted = trust.isTrusted(ca);
        boolean inIssuers = trust.isIssuer(ca);
        // a CA only the peer sent belongs to neither store; its CRL may be in either
        if (inTrusted || !inIssuers) {
            candidates.addAll(trust.trustedCrls());
        }
        if (inIssuers || !inTrusted) {
            candidates.addAll(trust.issuerCrls());
        }
        X509CRL newest = null;
        for (X509CRL crl : candidates) {
            if (crl.getIssuerX500Principal().equals(ca.getSubjectX500Principal()) && verifies(crl, ca.getPublicKey())
                    && (newest == null || crl.getThisUpdate().after(newest.getThisUpdate()))) {
                newest = crl;
            }
        }
        return newest;
    }

    // ---- host name and application URI (Part 4, 6.1.3 steps "Host Name" and "URI")

    /**
     * The application URI of a certificate: the first URI of its Subject Alternative Name (Part 6, 6.2.2),
     * or null when it has none.
     */
    public static String applicationUriOf(X509Certificate certificate) {
        for (List<?> name : subjectAltNames(certificate)) {
            if (((Integer) name.get(0)) == SAN_URI) {
                return String.valueOf(name.get(1));
            }
        }
        return null;
    }

    /**
     * Checks that the certificate names the application URI the peer announced (Part 4, 5.6.2:
     * CreateSession's clientDescription.applicationUri; Part 4, 6.1.3 step "URI").
     *
     * @throws UaException BadCertificateUriInvalid when the certificate's URI differs or is missing
     */
    public static void checkApplicationUri(X509Certificate certificate, String applicationUri) {
        String uri = applicationUriOf(certificate);
        if (uri == null || !uri.equals(applicationUri)) {
            throw new UaException(StatusCodes.BadCertificateUriInvalid, X509Names.describe(certificate)
                    + (uri == null ? " has no URI in its subject alternative name" : " names the application URI '"
                    + uri + "'") + ", but the application's URI is '" + applicationUri + "'");
        }
    }

    /**
     * Checks that the certificate names the host it was reached at (Part 4, 6.1.3 step "Host Name"): a DNS
     * entry of the Subject Alternative Name (case-insensitive, {@code *.} wildcards for one label) or, for an
     * IP literal, an IP entry with the same address.
     *
     * @throws UaException BadCertificateHostNameInvalid when no entry matches
     */
    public static void checkHostName(X509Certificate certificate, String host) {
        Optional<InetAddress> ip = HostNames.ipLiteral(host);
        List<String> names = new ArrayList<>();
        for (List<?> name : subjectAltNames(certificate)) {
            int type = (Integer) name.get(0);
            String value = String.valueOf(name.get(1));
            if (type == SAN_DNS) {
                names.add(value);
                if (ip.isEmpty() ? HostNames.dnsMatches(value, host) : value.equalsIgnoreCase(host)) {
                    return;
                }
            } else if (type == SAN_IP) {
                names.add(value);
                Optional<InetAddress> sanIp = HostNames.ipLiteral(value);
                if (ip.isPresent() && sanIp.isPresent() && ip.get().equals(sanIp.get())) {
                    return;
                }
            }
        }
        throw new UaException(StatusCodes.BadCertificateHostNameInvalid, X509Names.describe(certificate)
                + " is not issued to host '" + host + "'; its DNS and IP names: " + names);
    }

    private static Collection<List<?>> subjectAltNames(X509Certificate certificate) {
        try {
            Collection<List<?>> names = certificate.getSubjectAlternativeNames();
            return names == null ? List.of() : names;
        } catch (CertificateParsingException e) {
            throw new UaException(StatusCodes.BadCertificateInvalid, "the subject alternative name of "
                    + X509Names.describe(certificate) + " cannot be parsed: " + e.getMessage());
        }
    }

    // ---- helpers

    private void logFailure(X509Certificate leaf, UaException e) {
        int status = e.statusCode().value();
        boolean serious = status == StatusCodes.BadCertificateUntrusted || status == StatusCodes.BadCertificateRevoked
                || status == StatusCodes.BadCertificateIssuerRevoked;
        Level level = !logged.firstTime(X509Names.thumbprintHex(leaf), status) ? Level.DEBUG
                : serious ? Level.WARN : Level.INFO;
        LOG.atLevel(level).log("certificate {} rejected: {}", X509Names.describe(leaf), e.getMessage());
    }

    private static boolean bit(boolean[] usage, int index) {
        return usage.length > index && usage[index];
    }

    private static boolean verifies(X509Certificate certificate, PublicKey key) {
        try {
            certificate.verify(key);
            return true;
        } catch (GeneralSecurityException | RuntimeException e) {
            if (!"EC".equals(key.getAlgorithm())) {
                return false;
            }
        }
        try {
            certificate.verify(key, BouncyCastle.provider()); // Brainpool signatures, which the JDK no longer checks
            return true;
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }

    private static boolean verifies(X509CRL crl, PublicKey key) {
        try {
            crl.verify(key);
            return true;
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }

    /** A candidate issuer and whether the child's signature verified with its key. */
    private record Issuer(X509Certificate certificate, boolean verified) {
    }

    /** The chain being built, leaf first, with the outcome of each link's signature check. */
    private static final class Chain {

        private final List<X509Certificate> certificates = new ArrayList<>();
        private final List<Boolean> verified = new ArrayList<>();

        Chain(X509Certificate leaf) {
            certificates.add(leaf);
            verified.add(null);
        }

        void add(Issuer issuer) {
            verified.set(verified.size() - 1, issuer.verified());
            certificates.add(issuer.certificate());
            verified.add(null);
        }

        int size() {
            return certificates.size();
        }

        X509Certificate get(int i) {
            return certificates.get(i);
        }

        X509Certificate last() {
            return certificates.get(certificates.size() - 1);
        }

        boolean contains(X509Certificate c) {
            return certificates.contains(c);
        }

        List<X509Certificate> certificates() {
            return certificates;
        }

        /** The certificate whose key signs certificate {@code i}: the next one, or itself at the root. */
        X509Certificate issuerOf(int i) {
            return i + 1 < certificates.size() ? certificates.get(i + 1) : certificates.get(i);
        }

        boolean signatureVerified(int i) {
            Boolean v = verified.get(i);
            if (v == null) {
                // the self-signed end of the chain: checked once, here
                v = verifies(certificates.get(i), certificates.get(i).getPublicKey());
                verified.set(i, v);
            }
            return v;
        }
    }
}
