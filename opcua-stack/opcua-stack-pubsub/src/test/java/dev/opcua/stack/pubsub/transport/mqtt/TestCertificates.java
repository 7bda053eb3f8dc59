package dev.opcua.stack.pubsub.transport.mqtt;

import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** A self-signed broker certificate made in the test (BouncyCastle), as key managers and as trust managers. */
final class TestCertificates {

    private static final char[] PASSWORD = "test".toCharArray();

    final KeyManagerFactory keyManagers;
    final TrustManagerFactory trustManagers;

    private TestCertificates(KeyManagerFactory keyManagers, TrustManagerFactory trustManagers) {
        this.keyManagers = keyManagers;
        this.trustManagers = trustManagers;
    }

    /** A certificate for {@code subjectAltNames}: IP addresses (digits and dots) or DNS names. */
    static TestCertificates selfSigned(String... subjectAltNames) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(256);
        KeyPair keys = generator.generateKeyPair();
        Instant now = Instant.now();
        X500Name name = new X500Name("CN=test-broker");
        GeneralName[] names = new GeneralName[subjectAltNames.length];
        for (int i = 0; i < names.length; i++) {
            String n = subjectAltNames[i];
            names[i] = new GeneralName(n.matches("[0-9.]+") ? GeneralName.iPAddress : GeneralName.dNSName, n);
        }
        var builder = new JcaX509v3CertificateBuilder(name, BigInteger.valueOf(now.toEpochMilli()),
                Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))), name,
                keys.getPublic())
                .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names));
        X509Certificate certificate = new JcaX509CertificateConverter()
                .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));

        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        keyStore.load(null, null);
        keyStore.setKeyEntry("broker", keys.getPrivate(), PASSWORD, new X509Certificate[] {certificate});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keyStore, PASSWORD);

        KeyStore trustStore = KeyStore.getInstance("PKCS12");
        trustStore.load(null, null);
        trustStore.setCertificateEntry("broker", certificate);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trustStore);
        return new TestCertificates(kmf, tmf);
    }
}
