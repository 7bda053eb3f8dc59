package dev.opcua.stack.server.services;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.server.testing.Hex;
import dev.opcua.stack.server.testing.TestChunks;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reading what admission needs from an encoded request: encoding id, authentication token key,
 * requestHandle and timeoutHint (Part 6, 5.2.2.9; Part 4, 7.32).
 */
class RequestHeaderPeekTest {

    /** A two-byte NodeId ns=0;i=5 as authenticationToken. */
    private static final String TOKEN_5_TWO_BYTE = "00 05";

    /** timestamp 0, requestHandle 7, returnDiagnostics 0, auditEntryId null, timeoutHint 1000. */
    private static final String REST = "00 00 00 00 00 00 00 00  07 00 00 00  00 00 00 00  FF FF FF FF  E8 03 00 00";

    @ParameterizedTest(name = "authentication token of kind {0}")
    @ValueSource(ints = {0, 1, 2, 3, 4, 5})
    void the_handle_is_found_behind_every_kind_of_authentication_token(int kind) {
        NodeId token = switch (kind) {
            case 0 -> NodeId.NULL;
            case 1 -> NodeId.numeric(1, 200);
            case 2 -> NodeId.numeric(3, 1_000_000);
            case 3 -> NodeId.string(2, "session-token");
            case 4 -> NodeId.guid(1, UUID.randomUUID());
            default -> NodeId.opaque(1, ByteString.of(new byte[32]));
        };
        byte[] request = TestChunks.encodeMessage(new GetEndpointsRequest(
                new RequestHeader(token, DateTime.now(), 0xFFFF_FFF0L, 0, null, 0, ExtensionObject.NULL), null, null,
                null));

        assertThat(RequestHeaderPeek.requestHandle(Unpooled.wrappedBuffer(request))).isEqualTo(0xFFFF_FFF0L);
    }

    @Test
    void truncated_or_malformed_bytes_give_handle_zero() {
        byte[] request = TestChunks.encodeMessage(new GetEndpointsRequest(TestChunks.requestHeader(9), null, null, null));
        for (int length = 0; length < 4 + 2 + 8 + 4; length++) {
            assertThat(RequestHeaderPeek.requestHandle(Unpooled.wrappedBuffer(Arrays.copyOf(request, length))))
                    .as("first %d bytes", length).isZero();
        }
        assertThat(RequestHeaderPeek.requestHandle(Unpooled.wrappedBuffer(Hex.bytes("01 00 AC 01 03 00 00 FF FF FF 7F"))))
                .as("string token longer than the message").isZero();
        assertThat(RequestHeaderPeek.requestHandle(Unpooled.wrappedBuffer(Hex.bytes("07 00 00 00"))))
                .as("unknown NodeId encoding").isZero();
    }

    @Test
    void the_type_id_is_the_numeric_encoding_id_in_namespace_zero() {
        RequestHeaderPeek peek = peek(TestChunks.encodeMessage(
                new GetEndpointsRequest(TestChunks.requestHeader(9), null, null, null)));

        assertThat(peek.typeId()).isEqualTo(NodeIds.GetEndpointsRequest_Encoding_DefaultBinary);
        assertThat(peek(Hex.bytes("02 00 00 AC 01 00 00", TOKEN_5_TWO_BYTE, REST)).typeId()).isEqualTo(428);
        assertThat(peek(Hex.bytes("02 01 00 AC 01 00 00", TOKEN_5_TWO_BYTE, REST)).typeId())
                .as("namespace 1").isEqualTo(-1);
        assertThat(peek(Hex.bytes("01 02 AC 01", TOKEN_5_TWO_BYTE, REST)).typeId()).as("namespace 2").isEqualTo(-1);
    }

    @Test
    void the_timeout_hint_and_handle_are_read_behind_a_non_null_audit_entry_id() {
        byte[] request = TestChunks.encodeMessage(new GetEndpointsRequest(
                new RequestHeader(NodeId.numeric(1, 7), DateTime.now(), 42, 0, "audit-entry", 1_500,
                        ExtensionObject.NULL), null, null, null));

        RequestHeaderPeek peek = peek(request);

        assertThat(peek.requestHandle()).isEqualTo(42);
        assertThat(peek.timeoutHint()).isEqualTo(1_500);
        assertThat(peek(Hex.bytes("01 00 AC 01", TOKEN_5_TWO_BYTE, REST)).timeoutHint()).isEqualTo(1_000);
    }

    @Test
    void a_null_token_has_key_zero_and_any_other_token_a_negative_key() {
        assertThat(peek(tokenRequest(NodeId.NULL)).tokenKey()).isZero();
        assertThat(peek(tokenRequest(NodeId.string(0, ""))).tokenKey()).isZero();
        assertThat(peek(tokenRequest(NodeId.guid(0, new UUID(0, 0)))).tokenKey()).isZero();
        for (NodeId token : List.of(NodeId.numeric(0, 1), NodeId.numeric(5, 1_000_000), NodeId.string(1, "s"),
                NodeId.guid(1, UUID.randomUUID()), NodeId.opaque(1, ByteString.of(new byte[32])))) {
            assertThat(peek(tokenRequest(token)).tokenKey()).as("%s", token).isNegative();
        }
    }

    @Test
    void equal_tokens_share_a_key_whichever_encoding_carries_them_and_different_tokens_do_not() {
        long twoByte = peek(Hex.bytes("01 00 AC 01", TOKEN_5_TWO_BYTE, REST)).tokenKey();
        long fourByte = peek(Hex.bytes("01 00 AC 01", "01 00 05 00", REST)).tokenKey();
        long numeric = peek(Hex.bytes("01 00 AC 01", "02 00 00 05 00 00 00", REST)).tokenKey();
        assertThat(fourByte).isEqualTo(twoByte);
        assertThat(numeric).isEqualTo(twoByte);

        Set<Long> keys = new HashSet<>();
        for (NodeId token : List.of(NodeId.numeric(0, 6), NodeId.numeric(1, 5), NodeId.string(1, "a"),
                NodeId.string(1, "b"), NodeId.string(2, "a"), NodeId.opaque(1, ByteString.of(new byte[] {1, 2, 3})),
                NodeId.opaque(1, ByteString.of(new byte[] {1, 2, 4})),
                NodeId.opaque(1, ByteString.of(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9})),
                NodeId.opaque(1, ByteString.of(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 10})),
                NodeId.guid(1, new UUID(1, 2)), NodeId.guid(1, new UUID(1, 3)))) {
            keys.add(peek(tokenRequest(token)).tokenKey());
        }
        keys.add(twoByte);
        assertThat(keys).hasSize(12);
        assertThat(peek(tokenRequest(NodeId.string(1, "a"))).tokenKey())
                .isEqualTo(peek(tokenRequest(NodeId.string(1, "a"))).tokenKey());
    }

    private static byte[] tokenRequest(NodeId token) {
        return TestChunks.encodeMessage(new GetEndpointsRequest(
                new RequestHeader(token, DateTime.now(), 1, 0, null, 0, ExtensionObject.NULL), null, null, null));
    }

    private static RequestHeaderPeek peek(byte[] request) {
        RequestHeaderPeek peek = new RequestHeaderPeek();
        peek.read(Unpooled.wrappedBuffer(request));
        return peek;
    }
}
