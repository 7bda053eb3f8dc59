package dev.opcua.stack.server.services;

import io.netty.buffer.ByteBuf;

/**
 * Reads the requestHandle of an encoded request without decoding it: past the encoding NodeId, the
 * RequestHeader's authenticationToken NodeId and its timestamp (Part 6, 5.2.2.9 NodeId encodings;
 * Part 4, 7.32 field order). A refused or undecodable request is still answered with the handle the
 * client sent, as Part 4, 7.34 asks, and without allocating.
 */
final class RequestHeaderPeek {

    private RequestHeaderPeek() {
    }

    /** The requestHandle, or 0 (never a valid handle) when the bytes do not hold one. */
    static long requestHandle(ByteBuf message) {
        int index = message.readerIndex();
        int end = message.writerIndex();
        index = skipNodeId(message, index, end); // encoding id of the request
        index = skipNodeId(message, index, end); // RequestHeader.authenticationToken
        if (index < 0 || end - index < 12) {
            return 0;
        }
        return message.getUnsignedIntLE(index + 8); // after the 8-byte timestamp
    }

    /** The index after the NodeId at {@code index}, or -1 when it is malformed or truncated. */
    private static int skipNodeId(ByteBuf buf, int index, int end) {
        if (index < 0 || index >= end) {
            return -1;
        }
        int next;
        switch (buf.getByte(index)) {
            case 0x00 -> next = index + 2; // two-byte
            case 0x01 -> next = index + 4; // four-byte
            case 0x02 -> next = index + 7; // numeric
            case 0x04 -> next = index + 19; // guid
            case 0x03, 0x05 -> { // string, byte string: namespace, Int32 length, bytes
                if (end - index < 7) {
                    return -1;
                }
                int length = buf.getIntLE(index + 3);
                next = index + 7 + Math.max(0, length);
                if (length < -1 || next < 0) {
                    return -1;
                }
            }
            default -> {
                return -1;
            }
        }
        return next <= end ? next : -1;
    }
}
