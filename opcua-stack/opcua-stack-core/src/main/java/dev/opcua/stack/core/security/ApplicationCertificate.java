package dev.opcua.stack.core.security;

import dev.opcua.stack.core.types.builtin.ByteString;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * This application's instance certificate (Part 4, 6.1.2), the issuer certificates sent with it, and
 * its private key. Its DER encodings and thumbprint are computed once: secure channels send them in
 * every OpenSecureChannel and CreateSession.
 */
public final class ApplicationCertificate {

    private final X509Certificate certificate;
    private final List<X509Certificate> issuers;
    private final PrivateKey privateKey;
    private final ByteString der;
    private final ByteString chainDer;
    private final ByteString thumbprint;
    private final CertificateType type;

    /**
     * @param certificate the application instance certificate: an RSA key, or an EC key on a curve of
     *        one of the {@link CertificateType}s
     * @param issuers the certificates of its issuers, nearest first, sent with it; empty when self-signed
     * @param privateKey the certificate's private key
     */
    public ApplicationCertificate(X509Certificate certificate, List<X509Certificate> issuers, PrivateKey privateKey) {
        this.certificate = Objects.requireNonNull(certificate, "certificate");
        this.issuers = List.copyOf(issuers);
        this.privateKey = Objects.requireNonNull(privateKey, "privateKey");
        this.type = CertificateType.of(certificate.getPublicKey());
        if (type == null) {
            throw new IllegalArgumentException("the application certificate must hold an RSA key or an EC key on "
                    + "NIST P-256/P-384 or brainpoolP256r1/P384r1, not " + Certificates.describeKey(certificate));
        }
        this.der = ByteString.wrap(Certificates.encode(certificate));
        List<X509Certificate> chain = new ArrayList<>();
        chain.add(certificate);
        chain.addAll(this.issuers);
        this.chainDer = ByteString.wrap(Certificates.encodeChain(chain));
        this.thumbprint = ByteString.wrap(Certificates.thumbprint(certificate));
    }

    public X509Certificate certificate() {
        return certificate;
    }

    public List<X509Certificate> issuers() {
        return issuers;
    }

    public PrivateKey privateKey() {
        return privateKey;
    }

    /** DER of the certificate alone (EndpointDescription.serverCertificate, Part 4, 7.14). */
    public ByteString der() {
        return der;
    }

    /** DER of the certificate followed by its issuers (the SenderCertificate of Part 6, 6.7.2.3). */
    public ByteString chainDer() {
        return chainDer;
    }

    /** SHA-1 thumbprint of the certificate (Part 6, 6.7.2.3). */
    public ByteString thumbprint() {
        return thumbprint;
    }

    /** Which kind of certificate this is: RSA, or ECC on which curve (Part 12, 7.8.4). */
    public CertificateType type() {
        return type;
    }

    /** Bytes of this application's asymmetric signatures: the RSA modulus length, or twice an ECC coordinate. */
    public int keySizeBytes() {
        return type.isEcc() ? 2 * type.coordinateLength() : Certificates.keySizeBytes(certificate);
    }

    @Override
    public String toString() {
        return "ApplicationCertificate[" + certificate.getSubjectX500Principal().getName() + ", thumbprint "
                + Certificates.hex(thumbprint.unsafeBytes()) + "]";
    }
}
