package dev.opcua.stack.core.channel;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.builtin.ByteString;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;

/**
 * The security header of OPN chunks (Part 6, 6.7.2.3, Table 57): the policy URI, the sender's
 * certificate and the thumbprint of the receiver's certificate. With SecurityPolicy None both
 * certificate fields are null.
 *
 * @param securityPolicyUri URI of the channel's policy
 * @param senderCertificate DER certificate (chain) of the sender, null ByteString when not signed
 * @param receiverCertificateThumbprint SHA-1 thumbprint of the receiver's certificate, null ByteString when not encrypted
 */
public record AsymmetricSecurityHeader(String securityPolicyUri, ByteString senderCertificate,
        ByteString receiverCertificateThumbprint) {

    /** Longest policy URI a header may carry (Part 6, 6.7.2.3). */
    public static final int MAX_POLICY_URI_LENGTH = 255;

    /** The header of SecurityPolicy None. */
    public static final AsymmetricSecurityHeader NONE =
            new AsymmetricSecurityHeader(SecurityPolicy.None.uri(), ByteString.NULL, ByteString.NULL);

    public AsymmetricSecurityHeader {
        senderCertificate = senderCertificate == null ? ByteString.NULL : senderCertificate;
        receiverCertificateThumbprint = receiverCertificateThumbprint == null ? ByteString.NULL
                : receiverCertificateThumbprint;
    }

    public void encode(ByteBuf out) {
        int length = ByteBufUtil.utf8Bytes(securityPolicyUri);
        out.writeIntLE(length);
        ByteBufUtil.reserveAndWriteUtf8(out, securityPolicyUri, length);
        writeBytes(out, senderCertificate);
        writeBytes(out, receiverCertificateThumbprint);
    }

    private static void writeBytes(ByteBuf out, ByteString value) {
        byte[] bytes = value.unsafeBytes();
        if (bytes == null) {
            out.writeIntLE(-1);
        } else {
            out.writeIntLE(bytes.length);
            out.writeBytes(bytes);
        }
    }

    /** Bytes {@link #encode} writes. */
    public int encodedSize() {
        return 12 + ByteBufUtil.utf8Bytes(securityPolicyUri) + Math.max(0, senderCertificate.length())
                + Math.max(0, receiverCertificateThumbprint.length());
    }

    /**
     * Reads the header; a field with an invalid length closes the channel (Part 6, 6.7.2.3), so it
     * raises BadSecurityChecksFailed naming the field.
     */
    public static AsymmetricSecurityHeader decode(ByteBuf in) {
        int uriLength = readLength(in, "SecurityPolicyUri", MAX_POLICY_URI_LENGTH);
        if (uriLength <= 0) {
            throw new UaException(StatusCodes.BadSecurityChecksFailed, "the OPN security header has no SecurityPolicyUri");
        }
        String uri = in.readCharSequence(uriLength, StandardCharsets.UTF_8).toString();
        ByteString certificate = readBytes(in, "SenderCertificate");
        ByteString thumbprint = readBytes(in, "ReceiverCertificateThumbprint");
        return new AsymmetricSecurityHeader(uri, certificate, thumbprint);
    }

    private static ByteString readBytes(ByteBuf in, String field) {
        int length = readLength(in, field, in.readableBytes() - 4);
        if (length < 0) {
            return ByteString.NULL;
        }
        byte[] bytes = new byte[length];
        in.readBytes(bytes);
        return ByteString.wrap(bytes);
    }

    private static int readLength(ByteBuf in, String field, int max) {
        if (in.readableBytes() < 4) {
            throw new UaException(StatusCodes.BadSecurityChecksFailed, "the OPN security header is truncated at " + field);
        }
        int length = in.readIntLE();
        if (length < -1 || length > max || length > in.readableBytes()) {
            throw new UaException(StatusCodes.BadSecurityChecksFailed,
                    "the OPN security header has an invalid " + field + " length " + length);
        }
        return length;
    }
}
