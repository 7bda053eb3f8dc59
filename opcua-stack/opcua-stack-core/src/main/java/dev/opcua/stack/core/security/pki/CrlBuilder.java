package dev.opcua.stack.core.security.pki;

import dev.opcua.stack.core.security.ApplicationCertificate;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.CRLNumber;
import org.bouncycastle.asn1.x509.CRLReason;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v2CRLBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CRLConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Creates a certificate revocation list signed by a CA (Part 4, 6.1.3: every CA of a chain needs a CRL in
 * the PKI directory). An empty CRL says "nothing revoked"; it is what a CA publishes first.
 */
public final class CrlBuilder {

    private final ApplicationCertificate ca;
    private final List<X509Certificate> revoked = new ArrayList<>();
    private Instant thisUpdate;
    private Duration validity = Duration.ofDays(30);
    private BigInteger number = BigInteger.ONE;
    private String signatureAlgorithm = CertificateBuilder.DEFAULT_SIGNATURE_ALGORITHM;

    private CrlBuilder(ApplicationCertificate ca) {
        this.ca = ca;
    }

    /** A CRL issued by {@code ca}, which must be a CA certificate with its private key. */
    public static CrlBuilder issuedBy(ApplicationCertificate ca) {
        if (ca.certificate().getBasicConstraints() < 0) {
            throw new IllegalArgumentException(X509Names.describe(ca.certificate())
                    + " is not a CA certificate and cannot issue a CRL");
        }
        return new CrlBuilder(ca);
    }

    /** Adds certificates to revoke; each must have been issued by the CA. */
    public CrlBuilder revoke(X509Certificate... certificates) {
        for (X509Certificate c : certificates) {
            if (!c.getIssuerX500Principal().equals(ca.certificate().getSubjectX500Principal())) {
                throw new IllegalArgumentException(X509Names.describe(c) + " was issued by '"
                        + c.getIssuerX500Principal().getName() + "', not by the CRL's CA "
                        + X509Names.describe(ca.certificate()));
            }
            revoked.add(c);
        }
        return this;
    }

    /** thisUpdate, now unless set. */
    public CrlBuilder thisUpdate(Instant thisUpdate) {
        this.thisUpdate = Objects.requireNonNull(thisUpdate, "thisUpdate");
        return this;
    }

    /** Time from thisUpdate to nextUpdate; 30 days unless set. */
    public CrlBuilder validity(Duration validity) {
        this.validity = Objects.requireNonNull(validity, "validity");
        return this;
    }

    /** The CRL number extension, 1 unless set; a CA increases it with every CRL it publishes. */
    public CrlBuilder number(BigInteger number) {
        this.number = Objects.requireNonNull(number, "number");
        return this;
    }

    public CrlBuilder signatureAlgorithm(String signatureAlgorithm) {
        this.signatureAlgorithm = Objects.requireNonNull(signatureAlgorithm, "signatureAlgorithm");
        return this;
    }

    public X509CRL build() {
        Instant now = thisUpdate != null ? thisUpdate : Instant.now();
        try {
            X509v2CRLBuilder b = new X509v2CRLBuilder(
                    X500Name.getInstance(ca.certificate().getSubjectX500Principal().getEncoded()), Date.from(now));
            b.setNextUpdate(Date.from(now.plus(validity)));
            for (X509Certificate c : revoked) {
                b.addCRLEntry(c.getSerialNumber(), Date.from(now), CRLReason.unspecified);
            }
            b.addExtension(Extension.authorityKeyIdentifier, false,
                    new JcaX509ExtensionUtils().createAuthorityKeyIdentifier(ca.certificate()));
            b.addExtension(Extension.cRLNumber, false, new CRLNumber(number));
            return new JcaX509CRLConverter().getCRL(
                    b.build(new JcaContentSignerBuilder(signatureAlgorithm).build(ca.privateKey())));
        } catch (CertIOException | OperatorCreationException | GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot create a CRL of " + X509Names.describe(ca.certificate())
                    + ": " + e.getMessage(), e);
        }
    }
}
