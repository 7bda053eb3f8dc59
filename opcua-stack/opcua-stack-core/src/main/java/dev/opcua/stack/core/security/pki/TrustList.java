package dev.opcua.stack.core.security.pki;

import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.security.auth.x500.X500Principal;

/**
 * An immutable snapshot of the trust material of Part 4, 6.1.3 (the TrustList of Part 12, 7.8.2.6): trusted
 * certificates (applications and CAs), issuer certificates (CAs needed to build chains, not trusted by
 * themselves) and the CRLs of each list. {@link PkiDirectory} reads one from disk; tests build one in memory.
 */
public final class TrustList {

    /** No certificates and no CRLs: nothing is trusted. */
    public static final TrustList EMPTY = new TrustList(List.of(), List.of(), List.of(), List.of());

    private final List<X509Certificate> trustedCertificates;
    private final List<X509Certificate> issuerCertificates;
    private final List<X509CRL> trustedCrls;
    private final List<X509CRL> issuerCrls;
    private final Set<X509Certificate> trustedSet;
    private final Set<X509Certificate> issuerSet;
    private final Map<X500Principal, List<X509Certificate>> bySubject;

    public TrustList(List<X509Certificate> trustedCertificates, List<X509Certificate> issuerCertificates,
            List<X509CRL> trustedCrls, List<X509CRL> issuerCrls) {
        this.trustedCertificates = List.copyOf(trustedCertificates);
        this.issuerCertificates = List.copyOf(issuerCertificates);
        this.trustedCrls = List.copyOf(trustedCrls);
        this.issuerCrls = List.copyOf(issuerCrls);
        // X509Certificate equality is equality of the DER encoding
        this.trustedSet = Set.copyOf(this.trustedCertificates);
        this.issuerSet = Set.copyOf(this.issuerCertificates);
        Map<X500Principal, List<X509Certificate>> index = new HashMap<>();
        Set<X509Certificate> added = new HashSet<>();
        for (List<X509Certificate> list : List.of(this.trustedCertificates, this.issuerCertificates)) {
            for (X509Certificate c : list) {
                if (added.add(c)) {
                    index.computeIfAbsent(c.getSubjectX500Principal(), k -> new ArrayList<>()).add(c);
                }
            }
        }
        index.replaceAll((k, v) -> List.copyOf(v));
        this.bySubject = Map.copyOf(index);
    }

    /** Trusted certificates only: a self-signed application certificate or a root CA the administrator trusts. */
    public static TrustList trusting(X509Certificate... trusted) {
        return new TrustList(List.of(trusted), List.of(), List.of(), List.of());
    }

    public List<X509Certificate> trustedCertificates() {
        return trustedCertificates;
    }

    public List<X509Certificate> issuerCertificates() {
        return issuerCertificates;
    }

    public List<X509CRL> trustedCrls() {
        return trustedCrls;
    }

    public List<X509CRL> issuerCrls() {
        return issuerCrls;
    }

    public boolean isTrusted(X509Certificate certificate) {
        return trustedSet.contains(certificate);
    }

    public boolean isIssuer(X509Certificate certificate) {
        return issuerSet.contains(certificate);
    }

    /** Trusted and issuer certificates whose subject is {@code subject}. */
    List<X509Certificate> withSubject(X500Principal subject) {
        return bySubject.getOrDefault(subject, List.of());
    }

    @Override
    public String toString() {
        return "TrustList[" + trustedCertificates.size() + " trusted, " + issuerCertificates.size() + " issuers, "
                + trustedCrls.size() + " trusted CRLs, " + issuerCrls.size() + " issuer CRLs]";
    }
}
