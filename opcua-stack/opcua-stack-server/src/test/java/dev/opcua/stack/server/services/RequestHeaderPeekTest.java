package dev.opcua.stack.server.services;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Reading the requestHandle from an encoded request (Part 6, 5.2.2.9; Part 4, 7.32). */
class RequestHeaderPeekTest {

    @ParameterizedTest(name = "authentication token of kind {0}")
    @ValueSource(ints = {0, 1, 2, 3, 4, 5})
    void theHandleIsFoundBehindEveryKindOfAuthenticationToken(int kind) {
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
    void truncatedOrMalformedBytesGiveHandleZero() {
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
}
