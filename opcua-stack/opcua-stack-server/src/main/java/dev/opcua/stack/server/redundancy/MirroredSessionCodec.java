package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import dev.opcua.stack.server.session.Identity;
import dev.opcua.stack.server.session.SessionSnapshot;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.security.cert.X509Certificate;

/**
 * The bytes of a mirrored session's own part (its {@link SessionSnapshot}): a format version (Int32, now 2), then
 * the session's fields in UA Binary (Part 6, 5.2; the client certificate as its DER ByteString, null for none; the
 * security as the policy URI and the MessageSecurityMode). Its subscriptions are kept apart, in the parts of
 * {@link MirroredSubscriptionCodec}, so that the session is rewritten only when it changes. Stateless and
 * thread-safe.
 */
public final class MirroredSessionCodec {

    /** The format written; a different one is refused on reading. */
    public static final int VERSION = 2;

    private MirroredSessionCodec() {
    }

    public static byte[] encodeSession(SessionSnapshot s) {
        ByteBuf buf = Unpooled.buffer(512);
        try {
            UaEncoder e = new UaEncoder(CodecRegistry.standard(), buf);
            e.writeInt32(null, VERSION);
            e.writeNodeId(null, s.sessionId());
            e.writeString(null, s.sessionName());
            e.writeBoolean(null, s.clientDescription() != null);
            if (s.clientDescription() != null) {
                e.writeStruct(null, s.clientDescription(), ApplicationDescription.CODEC);
            }
            e.writeString(null, s.endpointUrl());
            e.writeDouble(null, s.revisedTimeout());
            e.writeInt64(null, s.maxResponseMessageSize());
            e.writeByteString(null, s.clientCertificate() == null ? ByteString.NULL
                    : ByteString.wrap(Certificates.encode(s.clientCertificate())));
            e.writeString(null, s.security().policy().uri());
            e.writeInt32(null, s.security().mode().value());
            Identity identity = s.identity();
            e.writeInt32(null, identity.tokenType().value());
            e.writeString(null, identity.userName());
            e.writeString(null, identity.certificateThumbprint());
            e.writeInt64(null, s.roles());
            e.writeByteString(null, s.serverNonce());
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            return bytes;
        } finally {
            buf.release();
        }
    }

    /** @throws IllegalArgumentException for another format version */
    public static SessionSnapshot decodeSession(byte[] bytes) {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            UaDecoder d = new UaDecoder(CodecRegistry.standard(), EncodingLimits.DEFAULT, buf);
            int version = d.readInt32(null);
            if (version != VERSION) {
                throw new IllegalArgumentException("mirrored session of format " + version + ", this server reads "
                        + VERSION);
            }
            NodeId sessionId = d.readNodeId(null);
            String name = d.readString(null);
            ApplicationDescription client = d.readBoolean(null)
                    ? d.readStruct(null, ApplicationDescription.CODEC) : null;
            String endpointUrl = d.readString(null);
            double timeout = d.readDouble(null);
            long maxResponse = d.readInt64(null);
            ByteString der = d.readByteString(null);
            X509Certificate certificate = der.isNull() ? null : Certificates.decode(der.bytes());
            EndpointSecurity security = new EndpointSecurity(SecurityPolicy.fromUri(d.readString(null)),
                    MessageSecurityMode.fromValue(d.readInt32(null)));
            Identity identity = new Identity(UserTokenType.fromValue(d.readInt32(null)), d.readString(null),
                    d.readString(null));
            long roles = d.readInt64(null);
            ByteString nonce = d.readByteString(null);
            return new SessionSnapshot(sessionId, name, client, endpointUrl, timeout, maxResponse, certificate,
                    security, identity, roles, nonce);
        } finally {
            buf.release();
        }
    }
}
