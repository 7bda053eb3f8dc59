package dev.opcua.stack.core.security.pki;

import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.security.crypto.BouncyCastle;
import dev.opcua.stack.core.security.crypto.EccCrypto;
import java.math.BigInteger;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Creates an RSA or EC key pair ({@link #type}) and an X.509 v3 application instance certificate for it (Part 4, 6.1.2;
 * Part 6, 6.2.2): subject CN = application name (optional O, DC = first host name), Subject Alternative
 * Name with the application URI, DNS names and IP addresses, key usage, extended key usage serverAuth and
 * clientAuth, basic constraints, subject and authority key identifiers.
 *
 * <p>Self-signed unless {@link #issuedBy} names a CA; {@link #ca(boolean)} makes a CA certificate (for
 * test PKIs and small plant CAs). Not thread-safe; one builder per certificate.
 */
public final class CertificateBuilder {

    /** Key size used when none is set. */
    public static final int DEFAULT_KEY_SIZE = 2048;
    /**
     * {@link #DEFAULT_VALIDITY} in days: a constant the compiler copies, so that other classes can use the default
     * without loading this one and, with it, BouncyCastle's classes.
     */
    public static final int DEFAULT_VALIDITY_DAYS = 5 * 365 + 1;
    /** Validity used when none is set. */
    public static final Duration DEFAULT_VALIDITY = Duration.ofDays(DEFAULT_VALIDITY_DAYS);
    /** Signature algorithm used when none is set. */
    public static final String DEFAULT_SIGNATURE_ALGORITHM = "SHA256withRSA";

    // backdated so that a peer whose clock lags a little still accepts a certificate created just now
    private static final Duration CLOCK_SKEW = Duration.ofMinutes(1);
    private static final SecureRandom RANDOM = new SecureRandom();

    private String applicationName;
    private String applicationUri;
    private String organization;
    private final List<String> hostNames = new ArrayList<>();
    private int keySize = DEFAULT_KEY_SIZE;
    private KeyPair keyPair;
    private Duration validity = DEFAULT_VALIDITY;
    private Instant notBefore;
    private Instant notAfter;
    private String signatureAlgorithm;
    private CertificateType type = CertificateType.RSA_SHA256;
    private boolean ca;
    private int pathLength = -1;
    private ApplicationCertificate issuer;

    private CertificateBuilder() {
    }

    /** A builder for an application certificate named {@code applicationName} (the subject's CN). */
    public static CertificateBuilder forApplication(String applicationName) {
        return new CertificateBuilder().applicationName(applicationName);
    }

    /** The subject's common name. */
    public CertificateBuilder applicationName(String applicationName) {
        if (applicationName == null || applicationName.isBlank()) {
            throw new IllegalArgumentException("the application name (the certificate's CN) must not be empty");
        }
        this.applicationName = applicationName;
        return this;
    }

    /** The ApplicationUri, written as the URI of the Subject Alternative Name (Part 4, 6.1.2). */
    public CertificateBuilder applicationUri(String applicationUri) {
        this.applicationUri = applicationUri;
        return this;
    }

    /** The subject's O (organization); none when null. */
    public CertificateBuilder organization(String organization) {
        this.organization = organization;
        return this;
    }

    /**
     * Host names and IP addresses of the application: each becomes a DNS or an IP entry of the Subject
     * Alternative Name (decided per entry: IPv4 and IPv6 literals are IP), the first also the subject's DC.
     */
    public CertificateBuilder hostNames(Collection<String> hostNames) {
        for (String h : hostNames) {
            if (h == null || h.isBlank()) {
                throw new IllegalArgumentException("host names must not be empty: " + hostNames);
            }
            this.hostNames.add(h.strip());
        }
        return this;
    }

    /** See {@link #hostNames(Collection)}. */
    public CertificateBuilder hostNames(String... hostNames) {
        return hostNames(List.of(hostNames));
    }

    /** RSA modulus length in bits of the generated key; 2048 unless set. */
    public CertificateBuilder keySize(int keySize) {
        if (keySize < 1024 || keySize > 16384) {
            throw new IllegalArgumentException("RSA key size must be between 1024 and 16384 bits, not " + keySize);
        }
        this.keySize = keySize;
        return this;
    }

    /**
     * The kind of certificate (Part 12, 7.8.4): RSA (the default, {@link #keySize} bits) or ECC on the
     * type's curve, whose key usage is digitalSignature, nonRepudiation and keyAgreement (Part 6, 6.2.2).
     */
    public CertificateBuilder type(CertificateType type) {
        this.type = Objects.requireNonNull(type, "type");
        return this;
    }

    /** Uses this key pair instead of generating one (a renewal that keeps the key, or fast tests). */
    public CertificateBuilder keyPair(KeyPair keyPair) {
        CertificateType of = CertificateType.of(keyPair.getPublic());
        if (of == null) {
            throw new IllegalArgumentException("an RSA key pair or an EC one on a supported curve is required, not "
                    + keyPair.getPublic().getAlgorithm());
        }
        this.type = of;
        this.keyPair = keyPair;
        return this;
    }

    /** Lifetime from now (not-before is backdated one minute); 5 years unless set. */
    public CertificateBuilder validity(Duration validity) {
        if (validity.isNegative() || validity.isZero()) {
            throw new IllegalArgumentException("validity must be positive: " + validity);
        }
        this.validity = validity;
        this.notBefore = null;
        this.notAfter = null;
        return this;
    }

    /** An explicit validity window, e.g. one in the past or the future for tests of expired certificates. */
    public CertificateBuilder validityWindow(Instant notBefore, Instant notAfter) {
        if (!notAfter.isAfter(notBefore)) {
            throw new IllegalArgumentException("not-after " + notAfter + " must be after not-before " + notBefore);
        }
        this.notBefore = notBefore;
        this.notAfter = notAfter;
        return this;
    }

    /**
     * JCA name of the signature algorithm; unless set, the one of the signing key's type (SHA256withRSA,
     * SHA256withECDSA or SHA384withECDSA). SHA1withRSA tests the policy check.
     */
    public CertificateBuilder signatureAlgorithm(String signatureAlgorithm) {
        this.signatureAlgorithm = Objects.requireNonNull(signatureAlgorithm, "signatureAlgorithm");
        return this;
    }

    /** Whether the certificate is a CA: basic constraints CA true, key usage keyCertSign and cRLSign, no EKU. */
    public CertificateBuilder ca(boolean ca) {
        this.ca = ca;
        return this;
    }

    /** For a CA: how many CAs may follow it in a chain (basic constraints pathLenConstraint); unlimited unless set. */
    public CertificateBuilder pathLength(int pathLength) {
        if (pathLength < 0) {
            throw new IllegalArgumentException("path length must not be negative: " + pathLength);
        }
        this.pathLength = pathLength;
        return this;
    }

    /** Signs the certificate with this CA's key instead of self-signing it; the CA goes into the issuers. */
    public CertificateBuilder issuedBy(ApplicationCertificate ca) {
        if (ca.certificate().getBasicConstraints() < 0) {
            throw new IllegalArgumentException("issuer " + X509Names.describe(ca.certificate())
                    + " is not a CA certificate (basic constraints CA=false)");
        }
        this.issuer = ca;
        return this;
    }

    /**
     * Generates the key pair (unless one was given) and the signed certificate.
     *
     * @return the certificate, its issuers (the CA and the CA's own issuers, nearest first) and its key
     */
    public ApplicationCertificate build() {
        if (applicationName == null) {
            throw new IllegalStateException("the application name is required");
        }
        KeyPair keys = keyPair != null ? keyPair
                : type.isEcc() ? EccCrypto.keyPair(type) : generateKeyPair(keySize);
        String algorithm = signatureAlgorithm != null ? signatureAlgorithm
                : (issuer != null ? issuer.type() : type).certificateSignatureAlgorithm();
        Instant from = notBefore != null ? notBefore : Instant.now().minus(CLOCK_SKEW);
        Instant to = notAfter != null ? notAfter : from.plus(CLOCK_SKEW).plus(validity);
        X500Principal subject = subjectName();
        X500Principal issuerName = issuer != null ? issuer.certificate().getSubjectX500Principal() : subject;
        try {
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuerName, serialNumber(),
                    Date.from(from), Date.from(to), subject, keys.getPublic());
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()));
            b.addExtension(Extension.authorityKeyIdentifier, false, issuer != null
                    ? ext.createAuthorityKeyIdentifier(issuer.certificate())
                    : ext.createAuthorityKeyIdentifier(keys.getPublic()));
            b.addExtension(Extension.basicConstraints, true, ca
                    ? (pathLength >= 0 ? new BasicConstraints(pathLength) : new BasicConstraints(true))
                    : new BasicConstraints(false));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(keyUsage()));
            if (!ca) {
                b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(
                        new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
            }
            GeneralNames san = subjectAltNames();
            if (san != null) {
                b.addExtension(Extension.subjectAlternativeName, false, san);
            }
            PrivateKey signingKey = issuer != null ? issuer.privateKey() : keys.getPrivate();
            JcaContentSignerBuilder signerBuilder = new JcaContentSignerBuilder(algorithm);
            if ("EC".equals(signingKey.getAlgorithm())) {
                signerBuilder.setProvider(BouncyCastle.provider()); // the JDK signs no Brainpool curve
            }
            ContentSigner signer = signerBuilder.build(signingKey);
            X509Certificate certificate = new JcaX509CertificateConverter().getCertificate(b.build(signer));
            List<X509Certificate> issuers = new ArrayList<>();
            if (issuer != null) {
                issuers.add(issuer.certificate());
                issuers.addAll(issuer.issuers());
            }
            return new ApplicationCertificate(certificate, issuers, keys.getPrivate());
        } catch (CertIOException | OperatorCreationException | GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot create the certificate for '" + applicationName + "' ("
                    + algorithm + "): " + e.getMessage(), e);
        }
    }

    /** A fresh RSA key pair of {@code keySize} bits. */
    public static KeyPair generateKeyPair(int keySize) {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(keySize, RANDOM);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("RSA key generation is missing from the JDK", e);
        }
    }

    private X500Principal subjectName() {
        // encoded DC, O, CN so that the JDK prints "CN=..., O=..., DC=..." (RFC 2253 prints the last RDN first)
        X500NameBuilder n = new X500NameBuilder(BCStyle.INSTANCE);
        if (!hostNames.isEmpty()) {
            n.addRDN(BCStyle.DC, hostNames.get(0));
        }
        if (organization != null && !organization.isBlank()) {
            n.addRDN(BCStyle.O, organization);
        }
        n.addRDN(BCStyle.CN, applicationName);
        try {
            return new X500Principal(n.build().getEncoded());
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("cannot encode the subject name of '" + applicationName + "'", e);
        }
    }

    private int keyUsage() {
        if (ca) {
            return KeyUsage.keyCertSign | KeyUsage.cRLSign;
        }
        int usage = type.isEcc()
                ? KeyUsage.digitalSignature | KeyUsage.nonRepudiation | KeyUsage.keyAgreement
                : KeyUsage.digitalSignature | KeyUsage.nonRepudiation | KeyUsage.keyEncipherment
                        | KeyUsage.dataEncipherment;
        // a self-signed certificate signs itself, which is the use keyCertSign names
        return issuer == null ? usage | KeyUsage.keyCertSign : usage;
    }

    private GeneralNames subjectAltNames() {
        List<GeneralName> names = new ArrayList<>();
        if (applicationUri != null && !applicationUri.isBlank()) {
            names.add(new GeneralName(GeneralName.uniformResourceIdentifier, applicationUri));
        }
        for (String host : hostNames) {
            Optional<InetAddress> ip = HostNames.ipLiteral(host);
            names.add(ip.isPresent()
                    ? new GeneralName(GeneralName.iPAddress, new DEROctetString(ip.get().getAddress()))
                    : new GeneralName(GeneralName.dNSName, host));
        }
        return names.isEmpty() ? null : new GeneralNames(names.toArray(new GeneralName[0]));
    }

    private static BigInteger serialNumber() {
        // at most 20 octets (RFC 5280, 4.1.2.2) and positive: 159 random bits
        BigInteger serial;
        do {
            serial = new BigInteger(159, RANDOM);
        } while (serial.signum() == 0);
        return serial;
    }
}
