package dev.opcua.stack.server.session;

import dev.opcua.stack.core.security.ApplicationCertificate;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * RSA keys and X.509 certificates for tests, made with BouncyCastle: application instance certificates
 * with an ApplicationUri in the subjectAltName, user certificates, and a CA issuing them. Key generation
 * costs about 100 ms per 2048-bit key: make keys once per test class.
 */
final class TestX509 {

    private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

    private TestX509() {
    }

    static KeyPair rsa(int bits) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(bits);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * {@code count} key pairs made in parallel, since the prime search dominates the start of a test
     * class. Not to be called from the static initializer of a class the generating lambda belongs to:
     * the workers would wait for that initializer.
     */
    static KeyPair[] rsa(int bits, int count) {
        return IntStream.range(0, count).parallel().mapToObj(i -> rsa(bits)).toArray(KeyPair[]::new);
    }

    /** A self-signed certificate; with an application URI in the subjectAltName when it is not null. */
    static X509Certificate selfSigned(KeyPair keys, String commonName, String applicationUri) {
        return issue(keys.getPublic(), commonName, applicationUri, "CN=" + commonName, keys.getPrivate(), false);
    }

    /** A certificate for {@code subjectKey} issued by {@code issuer}. */
    static X509Certificate issued(PublicKey subjectKey, String commonName, String applicationUri,
            X509Certificate issuer, PrivateKey issuerKey) {
        return issue(subjectKey, commonName, applicationUri, issuer.getSubjectX500Principal().getName(), issuerKey,
                false);
    }

    /** A self-signed CA certificate. */
    static X509Certificate authority(KeyPair keys, String commonName) {
        return issue(keys.getPublic(), commonName, null, "CN=" + commonName, keys.getPrivate(), true);
    }

    /** A self-signed application instance certificate with its key. */
    static ApplicationCertificate application(KeyPair keys, String commonName, String applicationUri) {
        return new ApplicationCertificate(selfSigned(keys, commonName, applicationUri), List.of(), keys.getPrivate());
    }

    private static X509Certificate issue(PublicKey subjectKey, String commonName, String applicationUri,
            String issuerName, PrivateKey issuerKey, boolean ca) {
        try {
            Instant now = Instant.now();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(new X500Name(issuerName),
                    BigInteger.valueOf(SERIAL.incrementAndGet()), Date.from(now.minus(Duration.ofHours(1))),
                    Date.from(now.plus(Duration.ofDays(365))), new X500Name("CN=" + commonName), subjectKey);
            if (applicationUri != null) {
                builder.addExtension(Extension.subjectAlternativeName, false,
                        new GeneralNames(new GeneralName(GeneralName.uniformResourceIdentifier, applicationUri)));
            }
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder("SHA256withRSA").build(issuerKey)));
        } catch (Exception e) {
            throw new IllegalStateException("cannot create a test certificate for " + commonName, e);
        }
    }
}
