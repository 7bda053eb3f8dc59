package dev.opcua.stack.server.testing;

import static dev.opcua.stack.server.testing.Hex.ascii;
import static dev.opcua.stack.server.testing.Hex.bytes;

/**
 * A client's side of a whole conversation with SecurityPolicy None, written byte by byte from the
 * tables of Part 6 (message layouts) and Part 4 (service parameters): HEL, OPN Issue, MSG
 * GetEndpointsRequest, CLO. The OPN expects SecureChannelId {@link #CHANNEL_ID}, TokenId 1.
 */
public final class GoldenFrames {

    /** The SecureChannelId the server assigns first when its id pool is seeded with {@link #CHANNEL_ID_SEED}. */
    public static final long CHANNEL_ID = 42;
    public static final long CHANNEL_ID_SEED = 41;
    public static final String ENDPOINT_URL = "opc.tcp://localhost:4840/";

    /** RequestHeader (Part 4, 7.32): null token, a fixed timestamp, the given handle; 29 bytes. */
    private static String requestHeader(String handle) {
        return "00 00"                      // AuthenticationToken: two-byte NodeId i=0, null (Part 6, 5.2.2.9)
                + "00 C0 5B 55 7A 7A DC 01" // Timestamp: DateTime ticks (Part 6, 5.2.2.5)
                + handle                    // RequestHandle: UInt32
                + "00 00 00 00"             // ReturnDiagnostics: none
                + "FF FF FF FF"             // AuditEntryId: null String
                + "10 27 00 00"             // TimeoutHint: 10000 ms
                + "00 00 00";               // AdditionalHeader: null ExtensionObject (NodeId i=0, encoding 0x00)
    }

    /** Hello, Part 6, 7.1.2.3, Table 72; 57 bytes. */
    public static final byte[] HEL = bytes(
            "48 45 4C",                   // MessageType "HEL" (Table 71)
            "46",                         // Reserved: 'F'
            "39 00 00 00",                // MessageSize: 57
            "00 00 00 00",                // ProtocolVersion: 0
            "00 00 01 00",                // ReceiveBufferSize: 65536
            "00 00 01 00",                // SendBufferSize: 65536
            "00 00 00 01",                // MaxMessageSize: 16 MiB
            "00 00 00 00",                // MaxChunkCount: 0, no limit
            "19 00 00 00",                // EndpointUrl: length 25
            ascii(ENDPOINT_URL));

    /**
     * The Acknowledge a server with the default TransportQuotas sends for {@link #HEL}; Part 6,
     * 7.1.2.4, Table 73; 28 bytes.
     */
    public static final byte[] ACK = bytes(
            "41 43 4B",                   // MessageType "ACK"
            "46",                         // Reserved: 'F'
            "1C 00 00 00",                // MessageSize: 28
            "00 00 00 00",                // ProtocolVersion: 0
            "FF FF 00 00",                // ReceiveBufferSize: 65535 = min(server maxBufferSize, HEL SendBufferSize)
            "FF FF 00 00",                // SendBufferSize: 65535 = min(server maxBufferSize, HEL ReceiveBufferSize)
            "00 00 20 00",                // MaxMessageSize: 2 MiB
            "22 00 00 00");               // MaxChunkCount: 34 = ceil(2 MiB / (65535 - 24)) + 1

    /** OpenSecureChannel Issue, mode None; Part 6, 6.7.2 (Tables 56, 57, 59) and 6.7.4 (Table 63); 132 bytes. */
    public static final byte[] OPN_ISSUE = bytes(
            "4F 50 4E",                   // MessageType "OPN" (Table 56)
            "46",                         // IsFinal: 'F'
            "84 00 00 00",                // MessageSize: 132
            "00 00 00 00",                // SecureChannelId: 0, a new channel (6.7.4)
            "2F 00 00 00",                // SecurityPolicyUri: length 47 (Table 57)
            ascii("http://opcfoundation.org/UA/SecurityPolicy#None"),
            "FF FF FF FF",                // SenderCertificate: null, not signed
            "FF FF FF FF",                // ReceiverCertificateThumbprint: null, not encrypted
            "01 00 00 00",                // SequenceNumber: 1 (Table 59)
            "01 00 00 00",                // RequestId: 1
            "01 00 BE 01",                // TypeId: four-byte NodeId i=446, OpenSecureChannelRequest binary encoding
            requestHeader("01 00 00 00"), // RequestHeader, RequestHandle 1
            "00 00 00 00",                // ClientProtocolVersion: 0, as in the HEL
            "00 00 00 00",                // RequestType: Issue (0)
            "01 00 00 00",                // SecurityMode: None (1)
            "FF FF FF FF",                // ClientNonce: null, ignored in mode None
            "60 EA 00 00");               // RequestedLifetime: 60000 ms

    /** GetEndpoints request on the channel; Part 6, Table 58 symmetric header; Part 4, 5.4.4 (Table 5); 93 bytes. */
    public static final byte[] MSG_GET_ENDPOINTS = bytes(
            "4D 53 47",                   // MessageType "MSG"
            "46",                         // IsFinal: 'F'
            "5D 00 00 00",                // MessageSize: 93
            "2A 00 00 00",                // SecureChannelId: 42
            "01 00 00 00",                // TokenId: 1 (Table 58)
            "02 00 00 00",                // SequenceNumber: 2
            "02 00 00 00",                // RequestId: 2
            "01 00 AC 01",                // TypeId: four-byte NodeId i=428, GetEndpointsRequest binary encoding
            requestHeader("02 00 00 00"), // RequestHeader, RequestHandle 2
            "18 00 00 00",                // EndpointUrl: length 24
            ascii("opc.tcp://plant-gw:4840/"),
            "FF FF FF FF",                // LocaleIds: null array
            "00 00 00 00");               // ProfileUris: empty array, all endpoints

    /** CloseSecureChannel; Part 6, 7.1.4 and Part 4, 5.5.3 (Table 13); 57 bytes. */
    public static final byte[] CLO = bytes(
            "43 4C 4F",                   // MessageType "CLO"
            "46",                         // IsFinal: 'F'
            "39 00 00 00",                // MessageSize: 57
            "2A 00 00 00",                // SecureChannelId: 42
            "01 00 00 00",                // TokenId: 1
            "03 00 00 00",                // SequenceNumber: 3
            "03 00 00 00",                // RequestId: 3
            "01 00 C4 01",                // TypeId: four-byte NodeId i=452, CloseSecureChannelRequest binary encoding
            requestHeader("03 00 00 00"));// RequestHeader, RequestHandle 3

    private GoldenFrames() {
    }
}
