package dev.opcua.stack.server.testing;

import dev.opcua.stack.core.security.ApplicationCertificate;
import java.math.BigInteger;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.Extensions;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequest;

/** A test CA's answer to a PKCS #10 request: the subject, key and subject alternative names it asks for. */
public final class TestSigningCa {

    private TestSigningCa() {
    }

    public static X509Certificate sign(ApplicationCertificate ca, byte[] request) throws Exception {
        JcaPKCS10CertificationRequest csr = new JcaPKCS10CertificationRequest(new PKCS10CertificationRequest(request));
        Extensions asked = Extensions.getInstance(csr.getAttributes(PKCSObjectIdentifiers.pkcs_9_at_extensionRequest)[0]
                .getAttrValues().getObjectAt(0));
        Instant now = Instant.now();
        JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(ca.certificate(),
                BigInteger.valueOf(now.toEpochMilli()), Date.from(now.minusSeconds(60)),
                Date.from(now.plus(Duration.ofDays(365))), csr.getSubject(), csr.getPublicKey());
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature
                | KeyUsage.nonRepudiation | KeyUsage.keyEncipherment | KeyUsage.dataEncipherment));
        builder.addExtension(asked.getExtension(Extension.subjectAlternativeName));
        return new JcaX509CertificateConverter().getCertificate(builder.build(
                new JcaContentSignerBuilder("SHA256withRSA").build(ca.privateKey())));
    }
}
