package dev.opcua.benchmarks.load;

import dev.opcua.stack.core.channel.messages.HelloMessage;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.SecurityTokenRequestType;
import dev.opcua.stack.core.types.structured.OpenSecureChannelRequest;
import dev.opcua.stack.core.types.structured.RequestHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;

/**
 * The bytes a client sends to open a secure channel with SecurityPolicy None: a Hello (Part 6,
 * 7.1.2.3) and an OpenSecureChannel Issue chunk (Part 6, 6.7.2: message header, asymmetric security
 * header with the None policy URI and no certificates, sequence header, then the request). The
 * {@code churn} scenario cuts this stream at random points.
 */
final class HandshakeBytes {

    private HandshakeBytes() {
    }

    /** HEL then OPN for {@code endpointUrl}, as one stream. */
    static byte[] helloAndOpen(String endpointUrl) {
        ByteBuf out = Unpooled.buffer();
        try {
            new HelloMessage(0, 65_535, 65_535, 0, 0, endpointUrl).encode(out);
            int start = out.writerIndex();
            byte[] policy = SecurityPolicy.None.uri().getBytes(StandardCharsets.US_ASCII);
            out.writeBytes("OPNF".getBytes(StandardCharsets.US_ASCII));
            out.writeIntLE(0);                  // MessageSize, set below
            out.writeIntLE(0);                  // SecureChannelId: 0 for an Issue
            out.writeIntLE(policy.length);      // SecurityPolicyUri
            out.writeBytes(policy);
            out.writeIntLE(-1);                 // SenderCertificate: null
            out.writeIntLE(-1);                 // ReceiverCertificateThumbprint: null
            out.writeIntLE(1);                  // SequenceNumber
            out.writeIntLE(1);                  // RequestId
            RequestHeader header = new RequestHeader(NodeId.NULL, DateTime.now(), 1, 0, null, 10_000,
                    ExtensionObject.NULL);
            new UaEncoder(CodecRegistry.standard(), out).writeMessage(new OpenSecureChannelRequest(header, 0,
                    SecurityTokenRequestType.Issue, MessageSecurityMode.None, null, 3_600_000));
            out.setIntLE(start + 4, out.writerIndex() - start);
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
        }
    }
}
