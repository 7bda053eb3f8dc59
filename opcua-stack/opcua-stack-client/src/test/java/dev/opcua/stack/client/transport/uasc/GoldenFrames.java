package dev.opcua.stack.client.transport.uasc;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Server-to-client frames written byte by byte from the tables of Part 6 (late-1.05 numbering), not
 * with the stack's encoders, so that the handler is checked against the specification rather than
 * against itself. All integers little-endian (Part 6, 5.2.2.2).
 */
public final class GoldenFrames {

    static final String NONE_POLICY_URI = "http://opcfoundation.org/UA/SecurityPolicy#None";
    /** An arbitrary UtcTime: 2024-01-01T00:00:00Z in 100 ns ticks since 1601 (Part 6, 5.2.2.5). */
    static final long TIMESTAMP = 133_485_408_000_000_000L;

    static final int GOOD = 0;
    static final int BAD_SESSION_ID_INVALID = 0x80250000;
    static final int BAD_RESPONSE_TOO_LARGE = 0x80B90000;
    static final int BAD_TCP_INTERNAL_ERROR = 0x80820000;
    static final int BAD_TCP_ENDPOINT_URL_INVALID = 0x80830000;

    private GoldenFrames() {
    }

    /** Acknowledge (Part 6, 7.1.2.4, Table 73): 28 bytes. */
    static byte[] ack(long protocolVersion, long receiveBufferSize, long sendBufferSize, long maxMessageSize,
            long maxChunkCount) {
        return new Bytes()
                .ascii("ACKF")                 // MessageType 'ACK', Reserved 'F' (Table 71)
                .u32(28)                       // MessageSize, header included
                .u32(protocolVersion)          // ProtocolVersion
                .u32(receiveBufferSize)        // ReceiveBufferSize: largest chunk the server receives
                .u32(sendBufferSize)           // SendBufferSize: largest chunk the server sends
                .u32(maxMessageSize)           // MaxMessageSize of requests, 0 = no limit
                .u32(maxChunkCount)            // MaxChunkCount of requests, 0 = no limit
                .toArray();
    }

    /** The Acknowledge of a server accepting our Hello unchanged. */
    public static byte[] ack() {
        return ack(0, 65535, 65535, 0, 0);
    }

    /** Error (Part 6, 7.1.2.5, Table 74). */
    static byte[] err(int status, String reason) {
        Bytes body = new Bytes().i32(status).string(reason);  // Error UInt32, Reason String
        return new Bytes().ascii("ERRF").u32(8 + body.size()).bytes(body.toArray()).toArray();
    }

    /**
     * OpenSecureChannel response chunk (Part 6, 6.7.2.2 Table 56 message header, 6.7.2.3 Table 57
     * asymmetric security header, 6.7.2.4 Table 59 sequence header, 6.7.4 Table 63 body).
     */
    public static byte[] opnResponse(long channelId, long sequenceNumber, long requestId, long tokenId,
            long revisedLifetime) {
        Bytes body = new Bytes()
                .hex("01 00 C1 01")            // NodeId of OpenSecureChannelResponse_Encoding_DefaultBinary, i=449
                .bytes(responseHeader(GOOD))   // ResponseHeader (Part 4, 7.33)
                .u32(0)                        // ServerProtocolVersion
                .u32(channelId)                // SecurityToken.ChannelId
                .u32(tokenId)                  // SecurityToken.TokenId
                .i64(TIMESTAMP)                // SecurityToken.CreatedAt
                .u32(revisedLifetime)          // SecurityToken.RevisedLifetime (ms)
                .i32(-1);                      // ServerNonce: null ByteString in mode None
        return asymmetricChunk(channelId, sequenceNumber, requestId, body.toArray());
    }

    /** A ServiceFault answering an OPN (Part 6, 6.7.4: errors after security checks are ServiceFaults). */
    static byte[] opnServiceFault(long sequenceNumber, long requestId, int status) {
        return asymmetricChunk(0, sequenceNumber, requestId, serviceFault(status));
    }

    static byte[] asymmetricChunk(long channelId, long sequenceNumber, long requestId, byte[] body) {
        Bytes chunk = new Bytes()
                .ascii("OPNF")                 // MessageType, IsFinal (Table 56)
                .u32(0)                        // MessageSize, patched below
                .u32(channelId)                // SecureChannelId
                .i32(NONE_POLICY_URI.length()) // SecurityPolicyUriLength (Table 57)
                .ascii(NONE_POLICY_URI)        // SecurityPolicyUri
                .i32(-1)                       // SenderCertificate: null, not signed
                .i32(-1)                       // ReceiverCertificateThumbprint: null, not encrypted
                .u32(sequenceNumber)           // SequenceNumber (Table 59)
                .u32(requestId)                // RequestId
                .bytes(body);
        return chunk.patchSize();
    }

    /** A MSG chunk (Part 6, 6.7.2.2 Table 56, 6.7.2 Table 58 symmetric header, Table 59) of type F, C or A. */
    public static byte[] msgChunk(char chunkType, long channelId, long tokenId, long sequenceNumber, long requestId,
            byte[] body) {
        return new Bytes()
                .ascii("MSG").ascii(String.valueOf(chunkType)) // MessageType, IsFinal 'F'/'C'/'A'
                .u32(0)                        // MessageSize, patched
                .u32(channelId)                // SecureChannelId
                .u32(tokenId)                  // TokenId (Table 58)
                .u32(sequenceNumber)           // SequenceNumber (Table 59)
                .u32(requestId)                // RequestId
                .bytes(body)
                .patchSize();
    }

    /** Abort chunk body (Part 6, 6.7.3, Table 62): Error UInt32, Reason String, no NodeId. */
    static byte[] abortBody(int status, String reason) {
        return new Bytes().i32(status).string(reason).toArray();
    }

    /** GetEndpointsResponse body (Part 4, 5.4.4 Table 5) with no endpoints: 32 bytes. */
    static byte[] getEndpointsResponse() {
        return getEndpointsResponse(1);
    }

    /** An empty GetEndpointsResponse echoing {@code requestHandle}. */
    public static byte[] getEndpointsResponse(long requestHandle) {
        return new Bytes()
                .hex("01 00 AF 01")            // NodeId of GetEndpointsResponse_Encoding_DefaultBinary, i=431
                .bytes(responseHeader(GOOD, requestHandle))
                .i32(0)                        // Endpoints: empty array
                .toArray();
    }

    /** ServiceFault body (Part 4, 7.35): NodeId i=397 and a ResponseHeader with a Bad serviceResult. */
    static byte[] serviceFault(int status) {
        return new Bytes().hex("01 00 8D 01").bytes(responseHeader(status)).toArray();
    }

    /** ResponseHeader (Part 4, 7.33; binary order Part 6, 5.2.6): 28 bytes. */
    static byte[] responseHeader(int serviceResult) {
        return responseHeader(serviceResult, 1);
    }

    /** A ResponseHeader echoing {@code requestHandle}. */
    static byte[] responseHeader(int serviceResult, long requestHandle) {
        return new Bytes()
                .i64(TIMESTAMP)                // Timestamp
                .u32(requestHandle)            // RequestHandle
                .i32(serviceResult)            // ServiceResult
                .hex("00")                     // ServiceDiagnostics: DiagnosticInfo with empty mask
                .i32(-1)                       // StringTable: null array
                .hex("00 00 00")               // AdditionalHeader: null NodeId, no body
                .toArray();
    }

    static byte[] concat(byte[]... parts) {
        Bytes all = new Bytes();
        for (byte[] p : parts) {
            all.bytes(p);
        }
        return all.toArray();
    }

    /** Little-endian byte writer. */
    static final class Bytes {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Bytes ascii(String s) {
            out.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
            return this;
        }

        Bytes hex(String spaced) {
            for (String b : spaced.split(" ")) {
                out.write(Integer.parseInt(b, 16));
            }
            return this;
        }

        Bytes u32(long v) {
            return i32((int) v);
        }

        Bytes i32(int v) {
            out.write(v);
            out.write(v >>> 8);
            out.write(v >>> 16);
            out.write(v >>> 24);
            return this;
        }

        Bytes i64(long v) {
            i32((int) v);
            return i32((int) (v >>> 32));
        }

        /** String: Int32 length, UTF-8 bytes; null as -1 (Part 6, 5.2.2.4). */
        Bytes string(String s) {
            if (s == null) {
                return i32(-1);
            }
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            i32(b.length);
            out.writeBytes(b);
            return this;
        }

        Bytes bytes(byte[] b) {
            out.writeBytes(b);
            return this;
        }

        int size() {
            return out.size();
        }

        byte[] toArray() {
            return out.toByteArray();
        }

        /** The bytes with MessageSize (offset 4) set to their length. */
        byte[] patchSize() {
            byte[] b = out.toByteArray();
            b[4] = (byte) b.length;
            b[5] = (byte) (b.length >>> 8);
            b[6] = (byte) (b.length >>> 16);
            b[7] = (byte) (b.length >>> 24);
            return b;
        }
    }
}
