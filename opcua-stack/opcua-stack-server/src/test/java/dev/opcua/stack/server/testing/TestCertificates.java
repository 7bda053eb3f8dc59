package dev.opcua.stack.server.testing;

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
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Self-signed application certificates for tests, created once per (name, key size) and JVM: RSA key
 * generation costs 50..500 ms, so tests share them.
 */
public final class TestCertificates {

    private static final ConcurrentHashMap<String, ApplicationCertificate> CACHE = new ConcurrentHashMap<>();
    private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

    private TestCertificates() {
    }

    /** A self-signed 2048-bit certificate for application URI {@code urn:test:<name>}. */
    public static ApplicationCertificate get(String name) {
        return get(name, 2048);
    }

    public static ApplicationCertificate get(String name, int keyBits) {
        return CACHE.computeIfAbsent(name + "/" + keyBits, key -> create(name, keyBits));
    }

    private static ApplicationCertificate create(String name, int keyBits) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(keyBits);
            KeyPair keys = generator.generateKeyPair();
            X500Name subject = new X500Name("CN=" + name + ",O=dev.opcua tests");
            Instant now = Instant.now();
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject,
                    BigInteger.valueOf(SERIAL.incrementAndGet()), Date.from(now.minus(Duration.ofMinutes(1))),
                    Date.from(now.plus(Duration.ofDays(365))), subject, keys.getPublic());
            builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                    new GeneralName(GeneralName.uniformResourceIdentifier, "urn:test:" + name),
                    new GeneralName(GeneralName.dNSName, "localhost")}));
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature
                    | KeyUsage.nonRepudiation | KeyUsage.keyEncipherment | KeyUsage.dataEncipherment
                    | KeyUsage.keyCertSign));
            X509Certificate certificate = new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder("SHA256withRSA").build(keys.getPrivate())));
            return new ApplicationCertificate(certificate, List.of(), keys.getPrivate());
        } catch (Exception e) {
            throw new IllegalStateException("test certificate " + name + " could not be created", e);
        }
    }
}
