package dev.opcua.stack.core.security.pki;

import java.math.BigInteger;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509v1CertificateBuilder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Certificates that {@link CertificateBuilder} refuses to make on purpose (wrong key usage, a non-CA
 * issuer, X.509 v1, unknown critical extensions), built with BouncyCastle directly for the failure tests.
 */
final class OddCertificates {

    private OddCertificates() {
    }

    /**
     * A v3 certificate for {@code subjectKeys} signed by {@code issuerKey}, with only the extensions given.
     *
     * @param issuer the issuer certificate, or null for self-signed
     * @param keyUsage key usage bits, or -1 for no key usage extension
     * @param ca basic constraints CA flag, or null for no basic constraints extension
     * @param criticalOid an extra critical extension with an empty value, or null
     */
    static X509Certificate v3(String cn, KeyPair subjectKeys, X509Certificate issuer, PrivateKey issuerKey,
            int keyUsage, Boolean ca, String criticalOid) {
        try {
            Instant now = Instant.now();
            X500Principal subject = new X500Principal("CN=" + cn);
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(
                    issuer == null ? subject : issuer.getSubjectX500Principal(), BigInteger.valueOf(now.toEpochMilli()),
                    Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))), subject,
                    subjectKeys.getPublic());
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            b.addExtension(Extension.subjectKeyIdentifier, false,
                    ext.createSubjectKeyIdentifier(subjectKeys.getPublic()));
            if (issuer != null) {
                b.addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(issuer));
            }
            if (keyUsage >= 0) {
                b.addExtension(Extension.keyUsage, true, new KeyUsage(keyUsage));
            }
            if (ca != null) {
                b.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
            }
            if (criticalOid != null) {
                b.addExtension(new ASN1ObjectIdentifier(criticalOid), true, new DEROctetString(new byte[0]));
            }
            return new JcaX509CertificateConverter().getCertificate(
                    b.build(new JcaContentSignerBuilder("SHA256withRSA").build(issuerKey)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A self-signed X.509 v1 certificate (no extensions at all). */
    static X509Certificate v1(String cn, KeyPair keys) {
        try {
            Instant now = Instant.now();
            X500Name name = new X500Name("CN=" + cn);
            X509v1CertificateBuilder b = new X509v1CertificateBuilder(name, BigInteger.TEN,
                    Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))), name,
                    SubjectPublicKeyInfo.getInstance(keys.getPublic().getEncoded()));
            return new JcaX509CertificateConverter().getCertificate(
                    b.build(new JcaContentSignerBuilder("SHA256withRSA").build(keys.getPrivate())));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
