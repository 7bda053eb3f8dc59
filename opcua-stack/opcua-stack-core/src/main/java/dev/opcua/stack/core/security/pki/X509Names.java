package dev.opcua.stack.core.security.pki;

import dev.opcua.stack.core.security.Certificates;
import java.security.cert.X509Certificate;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.x509.AuthorityKeyIdentifier;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.SubjectKeyIdentifier;

/** Names and key identifiers of certificates, for chain building, messages and file names. */
final class X509Names {

    private X509Names() {
    }

    /** "subject [thumbprint]" as every message and log line names a certificate. */
    static String describe(X509Certificate certificate) {
        return "'" + certificate.getSubjectX500Principal().getName() + "' [" + thumbprintHex(certificate) + "]";
    }

    static String thumbprintHex(X509Certificate certificate) {
        return Certificates.hex(Certificates.thumbprint(certificate));
    }

    /** The subject's first CN, or the whole subject when it has none. */
    static String commonName(X509Certificate certificate) {
        String dn = certificate.getSubjectX500Principal().getName();
        try {
            for (Rdn rdn : new LdapName(dn).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    return String.valueOf(rdn.getValue());
                }
            }
        } catch (InvalidNameException e) {
            // fall through: the JDK printed a name it cannot parse back; use it as it is
        }
        return dn;
    }

    /** A name that is safe as a file name on every platform: letters, digits, space, '-', '_' and '.'. */
    static String sanitise(String name) {
        StringBuilder sb = new StringBuilder(Math.min(name.length(), 64));
        for (int i = 0; i < name.length() && sb.length() < 64; i++) {
            char c = name.charAt(i);
            sb.append(Character.isLetterOrDigit(c) || c == ' ' || c == '-' || c == '_' || c == '.' ? c : '_');
        }
        String s = sb.toString().strip();
        while (s.startsWith(".")) {
            s = s.substring(1);
        }
        return s.isEmpty() ? "certificate" : s;
    }

    /** Subject and issuer are the same name: a root CA or a self-signed application certificate. */
    static boolean selfIssued(X509Certificate certificate) {
        return certificate.getSubjectX500Principal().equals(certificate.getIssuerX500Principal());
    }

    /** The subject key identifier, or null when the extension is absent or unreadable. */
    static byte[] subjectKeyId(X509Certificate certificate) {
        byte[] value = certificate.getExtensionValue(Extension.subjectKeyIdentifier.getId());
        if (value == null) {
            return null;
        }
        try {
            return SubjectKeyIdentifier.getInstance(ASN1OctetString.getInstance(value).getOctets()).getKeyIdentifier();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The key identifier of the authority key identifier extension, or null when absent or unreadable. */
    static byte[] authorityKeyId(X509Certificate certificate) {
        byte[] value = certificate.getExtensionValue(Extension.authorityKeyIdentifier.getId());
        if (value == null) {
            return null;
        }
        try {
            return AuthorityKeyIdentifier.getInstance(ASN1OctetString.getInstance(value).getOctets())
                    .getKeyIdentifierOctets();
        } catch (RuntimeException e) {
            return null;
        }
    }
}
