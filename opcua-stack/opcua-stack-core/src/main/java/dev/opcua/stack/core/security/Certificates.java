package dev.opcua.stack.core.security;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPublicKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;

/**
 * DER encoding, decoding and thumbprints of X.509 certificates as OPC UA carries them: a ByteString
 * holding one certificate, or several DER certificates one after another (Part 6, 6.2.3).
 */
public final class Certificates {

    private Certificates() {
    }

    /**
     * Decodes one certificate or a chain of concatenated DER certificates.
     *
     * @throws UaException BadCertificateInvalid when the bytes are not DER certificates
     */
    public static List<X509Certificate> decodeChain(byte[] der) {
        if (der == null || der.length == 0) {
            throw new UaException(StatusCodes.BadCertificateInvalid, "no certificate was sent");
        }
        try {
            Collection<? extends java.security.cert.Certificate> certificates =
                    factory().generateCertificates(new ByteArrayInputStream(der));
            List<X509Certificate> chain = new ArrayList<>(certificates.size());
            for (java.security.cert.Certificate c : certificates) {
                chain.add((X509Certificate) c);
            }
            if (chain.isEmpty()) {
                throw new UaException(StatusCodes.BadCertificateInvalid, "no certificate in " + der.length + " bytes");
            }
            return chain;
        } catch (CertificateException | ClassCastException e) {
            throw new UaException(StatusCodes.BadCertificateInvalid, "the certificate cannot be parsed: " + e.getMessage());
        }
    }

    /** The first certificate of {@link #decodeChain}. */
    public static X509Certificate decode(byte[] der) {
        return decodeChain(der).get(0);
    }

    public static byte[] encode(X509Certificate certificate) {
        try {
            return certificate.getEncoded();
        } catch (CertificateEncodingException e) {
            throw new IllegalArgumentException("certificate cannot be encoded", e);
        }
    }

    /** The DER encodings of the certificates, one after another. */
    public static byte[] encodeChain(List<X509Certificate> chain) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (X509Certificate c : chain) {
            out.writeBytes(encode(c));
        }
        return out.toByteArray();
    }

    /** SHA-1 over the DER encoding (Part 6, 6.7.2.3: ReceiverCertificateThumbprint). */
    public static byte[] thumbprint(X509Certificate certificate) {
        return sha1(encode(certificate));
    }

    /** SHA-1 of bytes. */
    public static byte[] sha1(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-1").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is missing from the JDK", e);
        }
    }

    /** Modulus length of the certificate's RSA key in bytes. */
    public static int keySizeBytes(X509Certificate certificate) {
        if (certificate.getPublicKey() instanceof RSAPublicKey rsa) {
            return (rsa.getModulus().bitLength() + 7) / 8;
        }
        throw new UaException(StatusCodes.BadCertificateInvalid, "certificate holds a "
                + certificate.getPublicKey().getAlgorithm() + " key, an RSA key is required");
    }

    /** The key of a certificate in words, for messages: {@code 2048-bit RSA}, {@code EC secp256r1}. */
    public static String describeKey(X509Certificate certificate) {
        java.security.PublicKey key = certificate.getPublicKey();
        if (key instanceof RSAPublicKey rsa) {
            return rsa.getModulus().bitLength() + "-bit RSA";
        }
        CertificateType type = CertificateType.of(key);
        if (type != null) {
            return "EC " + type.curve();
        }
        if (key instanceof java.security.interfaces.ECKey ec) {
            return "EC on an unsupported curve (" + ec.getParams().getCurve().getField().getFieldSize() + " bits)";
        }
        return key.getAlgorithm();
    }

    /** Lower-case hex, for logs. */
    public static String hex(byte[] bytes) {
        return bytes == null ? "null" : HexFormat.of().formatHex(bytes);
    }

    private static CertificateFactory factory() throws CertificateException {
        return CertificateFactory.getInstance("X.509");
    }
}
