package dev.opcua.stack.server.certificates;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.crypto.BouncyCastle;
import dev.opcua.stack.core.types.builtin.StatusCode;
import java.io.IOException;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.ExtensionsGenerator;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;

/**
 * PKCS #10 certificate requests (RFC 2986) as CreateSigningRequest returns them (Part 12, 7.10.10): DER, for
 * the subject asked for or the current certificate's, with the current certificate's subject alternative names
 * (host names and addresses) and always this server's application URI (Part 6, 6.2.2), so a CA cannot be asked
 * through this server for a certificate of another application.
 */
final class SigningRequests {

    private SigningRequests() {
    }

    /**
     * @param subjectName the subject as "CN=..., O=..." (Part 12, 7.6.4), or null or empty for the current
     *     certificate's
     * @throws UaException BadInvalidArgument when the subject does not parse
     */
    static byte[] create(X509Certificate current, String subjectName, String applicationUri, KeyPair keys,
            String signatureAlgorithm) {
        X500Principal subject = subject(current, subjectName);
        try {
            List<GeneralName> names = new ArrayList<>();
            names.add(new GeneralName(GeneralName.uniformResourceIdentifier, applicationUri));
            if (current.getSubjectAlternativeNames() != null) {
                for (List<?> entry : current.getSubjectAlternativeNames()) {
                    int tag = (Integer) entry.get(0);
                    if (tag == GeneralName.dNSName || tag == GeneralName.iPAddress) {
                        names.add(new GeneralName(tag, (String) entry.get(1)));
                    }
                }
            }
            ExtensionsGenerator extensions = new ExtensionsGenerator();
            extensions.addExtension(Extension.subjectAlternativeName, false,
                    new GeneralNames(names.toArray(new GeneralName[0])));
            return new JcaPKCS10CertificationRequestBuilder(subject, keys.getPublic())
                    .addAttribute(PKCSObjectIdentifiers.pkcs_9_at_extensionRequest, extensions.generate())
                    .build(signer(signatureAlgorithm).build(keys.getPrivate()))
                    .getEncoded();
        } catch (IOException | OperatorCreationException | java.security.cert.CertificateParsingException e) {
            throw new IllegalStateException("cannot make the certificate request for " + subject + ": "
                    + e.getMessage(), e);
        }
    }

    /** An EC key signs on BouncyCastle, which computes with the Brainpool curves the JDK no longer signs with. */
    private static JcaContentSignerBuilder signer(String signatureAlgorithm) {
        JcaContentSignerBuilder builder = new JcaContentSignerBuilder(signatureAlgorithm);
        return signatureAlgorithm.endsWith("ECDSA") ? builder.setProvider(BouncyCastle.provider()) : builder;
    }

    private static X500Principal subject(X509Certificate current, String subjectName) {
        if (subjectName == null || subjectName.isBlank()) {
            return current.getSubjectX500Principal();
        }
        try {
            return new X500Principal(subjectName);
        } catch (IllegalArgumentException e) {
            throw new UaException(StatusCode.of(StatusCodes.BadInvalidArgument), "subjectName '" + subjectName + "' is not a "
                    + "distinguished name such as \"CN=server, O=plant\" (Part 12, 7.6.4): " + e.getMessage(), e);
        }
    }
}
