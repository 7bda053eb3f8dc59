package dev.opcua.stack.server.certificates;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.security.pki.CertificateLoader;
import dev.opcua.stack.core.security.pki.TrustList;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.structured.TrustListDataType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.security.cert.CRLException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;

/**
 * The content of a TrustList file (Part 12, 7.8.2.1): one TrustListDataType (Part 12, 7.8.2.8) in UA Binary,
 * not wrapped in an ExtensionObject, whose SpecifiedLists bits (TrustListMasks, Part 12, 7.8.2.9) say which
 * of the four lists it carries. Converts between those bytes, the structure and the PKI's {@link TrustList}.
 */
public final class TrustListCodec {

    /** TrustListMasks (Part 12, 7.8.2.9). */
    public static final int TRUSTED_CERTIFICATES = 1;
    public static final int TRUSTED_CRLS = 2;
    public static final int ISSUER_CERTIFICATES = 4;
    public static final int ISSUER_CRLS = 8;
    public static final int ALL = 15;

    private TrustListCodec() {
    }

    /** The UA Binary encoding of {@code value}. */
    public static byte[] encode(TrustListDataType value) {
        ByteBuf buf = Unpooled.buffer(1024);
        try {
            TrustListDataType.CODEC.encode(new UaEncoder(CodecRegistry.standard(), buf), value);
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            return bytes;
        } finally {
            buf.release();
        }
    }

    /**
     * Decodes a TrustList file of at most {@code maxSize} bytes (0: no limit); bytes after the structure are an
     * error, as a file of two lists would be ambiguous.
     *
     * @throws UaException BadRequestTooLarge past {@code maxSize}, BadDecodingError (or the decoder's status)
     *         when the bytes are not one TrustListDataType
     */
    public static TrustListDataType decode(byte[] bytes, int maxSize) {
        if (maxSize > 0 && bytes.length > maxSize) {
            throw new UaException(StatusCodes.BadRequestTooLarge, "the trust list of " + bytes.length
                    + " bytes exceeds MaxTrustListSize " + maxSize);
        }
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        TrustListDataType value;
        try {
            EncodingLimits limits = new EncodingLimits(0xFFFF, Math.max(1, bytes.length), 0xFFFF, 10);
            value = TrustListDataType.CODEC.decode(new UaDecoder(CodecRegistry.standard(), limits, buf));
        } catch (UaException e) {
            throw new UaException(e.statusCode(), "the trust list file is not a TrustListDataType: " + e.getMessage(),
                    e);
        }
        if (buf.isReadable()) {
            throw new UaException(StatusCodes.BadDecodingError, "the trust list file has " + buf.readableBytes()
                    + " bytes after its TrustListDataType");
        }
        if ((value.specifiedLists() & ~ALL) != 0) {
            throw new UaException(StatusCodes.BadInvalidArgument, "SpecifiedLists " + value.specifiedLists()
                    + " has bits that are no TrustListMasks (Part 12, 7.8.2.9)");
        }
        return value;
    }

    /** The lists of {@code trustList} that {@code masks} selects; the others are left empty. */
    public static TrustListDataType of(TrustList trustList, long masks) {
        return new TrustListDataType(masks & ALL,
                (masks & TRUSTED_CERTIFICATES) != 0 ? certificates(trustList.trustedCertificates()) : new ByteString[0],
                (masks & TRUSTED_CRLS) != 0 ? crls(trustList.trustedCrls()) : new ByteString[0],
                (masks & ISSUER_CERTIFICATES) != 0 ? certificates(trustList.issuerCertificates()) : new ByteString[0],
                (masks & ISSUER_CRLS) != 0 ? crls(trustList.issuerCrls()) : new ByteString[0]);
    }

    /**
     * The certificates and CRLs of {@code value} parsed; the lists SpecifiedLists leaves out are empty.
     *
     * @throws UaException BadCertificateInvalid naming the list and position of what does not parse
     */
    public static TrustList parse(TrustListDataType value) {
        long masks = value.specifiedLists();
        return new TrustList(
                (masks & TRUSTED_CERTIFICATES) != 0 ? parseCertificates(value.trustedCertificates(),
                        "TrustedCertificates") : List.of(),
                (masks & ISSUER_CERTIFICATES) != 0 ? parseCertificates(value.issuerCertificates(),
                        "IssuerCertificates") : List.of(),
                (masks & TRUSTED_CRLS) != 0 ? parseCrls(value.trustedCrls(), "TrustedCrls") : List.of(),
                (masks & ISSUER_CRLS) != 0 ? parseCrls(value.issuerCrls(), "IssuerCrls") : List.of());
    }

    /**
     * One DER certificate (a ByteString argument such as AddCertificate's); a chain of several is allowed.
     *
     * @throws UaException BadCertificateInvalid
     */
    static List<X509Certificate> parseCertificateChain(byte[] der, String what) {
        if (der == null || der.length == 0) {
            throw new UaException(StatusCodes.BadCertificateInvalid, what + " is empty");
        }
        try {
            List<X509Certificate> chain = CertificateLoader.readCertificates(der, what);
            if (chain.isEmpty()) {
                throw new UaException(StatusCodes.BadCertificateInvalid, what + " holds no certificate");
            }
            return chain;
        } catch (IllegalArgumentException e) {
            throw new UaException(StatusCode.of(StatusCodes.BadCertificateInvalid), what + " is not a DER certificate: "
                    + e.getMessage(), e);
        }
    }

    private static List<X509Certificate> parseCertificates(ByteString[] list, String name) {
        List<X509Certificate> parsed = new ArrayList<>();
        for (int i = 0; list != null && i < list.length; i++) {
            parsed.addAll(parseCertificateChain(list[i] == null ? null : list[i].bytes(), name + "[" + i + "]"));
        }
        return parsed;
    }

    private static List<X509CRL> parseCrls(ByteString[] list, String name) {
        List<X509CRL> parsed = new ArrayList<>();
        for (int i = 0; list != null && i < list.length; i++) {
            String what = name + "[" + i + "]";
            if (list[i] == null || list[i].isNull() || list[i].length() == 0) {
                throw new UaException(StatusCodes.BadCertificateInvalid, what + " is empty");
            }
            try {
                parsed.addAll(CertificateLoader.readCrls(list[i].bytes(), what));
            } catch (IllegalArgumentException e) {
                throw new UaException(StatusCode.of(StatusCodes.BadCertificateInvalid), what + " is not a DER CRL: "
                        + e.getMessage(), e);
            }
        }
        return parsed;
    }

    private static ByteString[] certificates(List<X509Certificate> certificates) {
        ByteString[] out = new ByteString[certificates.size()];
        for (int i = 0; i < out.length; i++) {
            try {
                out[i] = ByteString.wrap(certificates.get(i).getEncoded());
            } catch (CertificateEncodingException e) {
                throw new IllegalStateException("a certificate of the trust list cannot be encoded", e);
            }
        }
        return out;
    }

    private static ByteString[] crls(List<X509CRL> crls) {
        ByteString[] out = new ByteString[crls.size()];
        for (int i = 0; i < out.length; i++) {
            try {
                out[i] = ByteString.wrap(crls.get(i).getEncoded());
            } catch (CRLException e) {
                throw new IllegalStateException("a CRL of the trust list cannot be encoded", e);
            }
        }
        return out;
    }
}
