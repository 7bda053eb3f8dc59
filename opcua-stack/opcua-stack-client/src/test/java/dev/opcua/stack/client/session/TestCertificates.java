package dev.opcua.stack.client.session;

import dev.opcua.stack.core.security.ApplicationCertificate;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Self-signed 2048-bit RSA certificates for the session and interop tests, made once per application
 * URI and JVM (a key pair costs 50..500 ms). Each names its application URI and the loopback host in
 * subjectAltName, and has the key usages of an application instance certificate (Part 6, 6.2.2), so
 * that Eclipse Milo accepts it once it is in Milo's trust list.
 */
public final class TestCertificates {

    private static final ConcurrentHashMap<String, ApplicationCertificate> CACHE = new ConcurrentHashMap<>();
    private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

    private TestCertificates() {
    }

    /** The certificate of {@code urn:dev.opcua:test:<name>}, common name {@code name}. */
    public static ApplicationCertificate get(String name) {
        return CACHE.computeIfAbsent(name, TestCertificates::create);
    }

    /** The application URI the certificate of {@code name} carries. */
    public static String applicationUri(String name) {
        return "urn:dev.opcua:test:" + name;
    }

    private static ApplicationCertificate create(String name) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            KeyPair keys = generator.generateKeyPair();
            X500Name subject = new X500Name("CN=" + name + ",O=dev.opcua tests");
            Instant now = Instant.now();
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject,
                    BigInteger.valueOf(SERIAL.incrementAndGet()), Date.from(now.minus(Duration.ofHours(1))),
                    Date.from(now.plus(Duration.ofDays(365))), subject, keys.getPublic());
            builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                    new GeneralName(GeneralName.uniformResourceIdentifier, applicationUri(name)),
                    new GeneralName(GeneralName.dNSName, "localhost"),
                    new GeneralName(GeneralName.iPAddress, "127.0.0.1")}));
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature
                    | KeyUsage.nonRepudiation | KeyUsage.keyEncipherment | KeyUsage.dataEncipherment
                    | KeyUsage.keyCertSign));
            builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(new KeyPurposeId[] {
                    KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
            X509Certificate certificate = new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder("SHA256withRSA").build(keys.getPrivate())));
            return new ApplicationCertificate(certificate, List.of(), keys.getPrivate());
        } catch (Exception e) {
            throw new IllegalStateException("test certificate " + name + " could not be created", e);
        }
    }
}
