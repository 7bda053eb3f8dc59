package dev.opcua.stack.server.testing;

import dev.opcua.stack.core.channel.AsymmetricSecurityHeader;
import dev.opcua.stack.core.channel.ChunkType;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.channel.messages.HelloMessage;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.SecurityTokenRequestType;
import dev.opcua.stack.core.types.structured.CloseSecureChannelRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.OpenSecureChannelRequest;
import dev.opcua.stack.core.types.structured.RequestHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

/**
 * Builds client frames for tests that vary one field of a chunk (Part 6, 6.7.2): any message type,
 * chunk type, ids and body, encoded with the stack's own encoder.
 */
public final class TestChunks {

    public static final String NONE_URI = SecurityPolicy.None.uri();

    private TestChunks() {
    }

    public static byte[] hello(String endpointUrl, long receiveBufferSize, long sendBufferSize, long maxMessageSize,
            long maxChunkCount) {
        ByteBuf out = Unpooled.buffer();
        try {
            new HelloMessage(0, receiveBufferSize, sendBufferSize, maxMessageSize, maxChunkCount, endpointUrl)
                    .encode(out);
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
        }
    }

    public static byte[] hello(String endpointUrl) {
        return hello(endpointUrl, 65_536, 65_536, 0, 0);
    }

    public static RequestHeader requestHeader(long requestHandle) {
        return new RequestHeader(NodeId.NULL, DateTime.now(), requestHandle, 0, null, 10_000, ExtensionObject.NULL);
    }

    public static OpenSecureChannelRequest openRequest(SecurityTokenRequestType type, MessageSecurityMode mode,
            long requestedLifetime, long requestHandle) {
        return new OpenSecureChannelRequest(requestHeader(requestHandle), 0, type, mode, ByteString.NULL,
                requestedLifetime);
    }

    /** An OPN chunk with the given header SecureChannelId and policy. */
    public static byte[] open(long channelId, String policyUri, long sequenceNumber, long requestId,
            OpenSecureChannelRequest request) {
        ByteBuf out = Unpooled.buffer();
        try {
            int start = header(out, MessageType.OPN, ChunkType.FINAL, channelId);
            new AsymmetricSecurityHeader(policyUri, ByteString.NULL, ByteString.NULL).encode(out);
            out.writeIntLE((int) sequenceNumber).writeIntLE((int) requestId);
            encode(out, request);
            out.setIntLE(start + 4, out.writerIndex() - start);
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
        }
    }

    /** An OPN Issue for a new channel, mode None, sequence number 1, request id 1, lifetime 60 s. */
    public static byte[] openIssue() {
        return open(0, NONE_URI, 1, 1, openRequest(SecurityTokenRequestType.Issue, MessageSecurityMode.None, 60_000, 1));
    }

    /** A symmetric chunk (MSG or CLO) carrying an encoded message. */
    public static byte[] symmetric(MessageType type, ChunkType chunkType, long channelId, long tokenId,
            long sequenceNumber, long requestId, UaStructure message) {
        ByteBuf body = Unpooled.buffer();
        try {
            encode(body, message);
            return symmetric(type, chunkType, channelId, tokenId, sequenceNumber, requestId, ByteBufUtil.getBytes(body));
        } finally {
            body.release();
        }
    }

    /** A symmetric chunk with raw body bytes. */
    public static byte[] symmetric(MessageType type, ChunkType chunkType, long channelId, long tokenId,
            long sequenceNumber, long requestId, byte[] body) {
        ByteBuf out = Unpooled.buffer();
        try {
            int start = header(out, type, chunkType, channelId);
            out.writeIntLE((int) tokenId).writeIntLE((int) sequenceNumber).writeIntLE((int) requestId);
            out.writeBytes(body);
            out.setIntLE(start + 4, out.writerIndex() - start);
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
        }
    }

    public static byte[] getEndpoints(long channelId, long tokenId, long sequenceNumber, long requestId,
            String endpointUrl) {
        return symmetric(MessageType.MSG, ChunkType.FINAL, channelId, tokenId, sequenceNumber, requestId,
                new GetEndpointsRequest(requestHeader(requestId), endpointUrl, null, new String[0]));
    }

    public static byte[] close(long channelId, long tokenId, long sequenceNumber, long requestId) {
        return symmetric(MessageType.CLO, ChunkType.FINAL, channelId, tokenId, sequenceNumber, requestId,
                new CloseSecureChannelRequest(requestHeader(requestId)));
    }

    /** The encoding NodeId and body of a message (Part 6, 5.2.9). */
    public static byte[] encodeMessage(UaStructure message) {
        ByteBuf out = Unpooled.buffer();
        try {
            encode(out, message);
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
        }
    }

    private static void encode(ByteBuf out, UaStructure message) {
        new UaEncoder(CodecRegistry.standard(), out).writeMessage(message);
    }

    private static int header(ByteBuf out, MessageType type, ChunkType chunkType, long channelId) {
        int start = out.writerIndex();
        out.writeMediumLE(type.code());
        out.writeByte(chunkType.ascii());
        out.writeIntLE(0);
        out.writeIntLE((int) channelId);
        return start;
    }
}
