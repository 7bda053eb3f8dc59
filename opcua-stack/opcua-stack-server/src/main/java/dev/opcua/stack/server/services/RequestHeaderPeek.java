package dev.opcua.stack.server.services;

import io.netty.buffer.ByteBuf;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Reads what admission needs from an encoded request without decoding it, on the event loop and
 * without allocating: the numeric encoding id (which service), a key for the RequestHeader's
 * authenticationToken (whose queue), the requestHandle and the timeoutHint (Part 6, 5.2.2.9 NodeId
 * encodings; Part 4, 7.32 field order: authenticationToken, timestamp, requestHandle,
 * returnDiagnostics, auditEntryId, timeoutHint). A refused or undecodable request is still answered
 * with the handle the client sent, as Part 4, 7.34 asks.
 *
 * <p>One instance per thread, reused: {@link #read} overwrites every field.
 */
final class RequestHeaderPeek {

    /** Mixed into every token key, so that a client cannot pick a token that shares another's key. */
    private static final long SEED = ThreadLocalRandom.current().nextLong();

    private int typeId;
    private long tokenKey;
    private long requestHandle;
    private long timeoutHint;

    /** The requestHandle, or 0 (never a valid handle) when the bytes do not hold one. */
    static long requestHandle(ByteBuf message) {
        RequestHeaderPeek peek = new RequestHeaderPeek();
        peek.read(message);
        return peek.requestHandle;
    }

    /** Reads the fields of {@code message}, leaving its indexes; unreadable fields become 0 (the type -1). */
    void read(ByteBuf message) {
        typeId = -1;
        tokenKey = 0;
        requestHandle = 0;
        timeoutHint = 0;
        int index = message.readerIndex();
        int end = message.writerIndex();
        typeId = numericNs0(message, index, end);
        index = skipNodeId(message, index, end);
        int token = index;
        index = skipNodeId(message, index, end);
        if (index < 0) {
            return;
        }
        tokenKey = tokenKey(message, token);
        if (end - index < 12) {
            return;
        }
        requestHandle = message.getUnsignedIntLE(index + 8); // after the 8-byte timestamp
        index += 16; // timestamp, requestHandle, returnDiagnostics
        if (end - index < 4) {
            return;
        }
        int auditLength = message.getIntLE(index);
        index += 4 + Math.max(0, auditLength);
        if (auditLength < -1 || index < 0 || end - index < 4) {
            return;
        }
        timeoutHint = message.getUnsignedIntLE(index);
    }

    /** The numeric identifier of the encoding NodeId when it is in namespace 0, else -1. */
    int typeId() {
        return typeId;
    }

    /**
     * A 63-bit key of the authenticationToken with the sign bit set, so that it never equals a
     * SecureChannelId (a UInt32); 0 for a null token or unreadable bytes. Equal tokens have equal keys
     * whichever of the numeric encodings carries them; different tokens share a key only by a 2^-63
     * chance, which costs fairness between the two, never correctness (the session layer checks the
     * token itself).
     */
    long tokenKey() {
        return tokenKey;
    }

    long requestHandle() {
        return requestHandle;
    }

    /** The timeoutHint in milliseconds; 0 = none. */
    long timeoutHint() {
        return timeoutHint;
    }

    private static int numericNs0(ByteBuf buf, int index, int end) {
        if (end - index < 2) {
            return -1;
        }
        return switch (buf.getByte(index)) {
            case 0x00 -> buf.getUnsignedByte(index + 1);
            case 0x01 -> end - index >= 4 && buf.getByte(index + 1) == 0 ? buf.getUnsignedShortLE(index + 2) : -1;
            case 0x02 -> end - index >= 7 && buf.getShortLE(index + 1) == 0 && buf.getIntLE(index + 3) >= 0
                    ? buf.getIntLE(index + 3) : -1;
            default -> -1;
        };
    }

    /** The key of the well-formed NodeId at {@code index} (checked by {@link #skipNodeId} already). */
    private static long tokenKey(ByteBuf buf, int index) {
        int kind = buf.getByte(index);
        int namespace;
        long hash;
        switch (kind) {
            case 0x00, 0x01, 0x02 -> {
                long identifier;
                if (kind == 0x00) {
                    namespace = 0;
                    identifier = buf.getUnsignedByte(index + 1);
                } else if (kind == 0x01) {
                    namespace = buf.getUnsignedByte(index + 1);
                    identifier = buf.getUnsignedShortLE(index + 2);
                } else {
                    namespace = buf.getUnsignedShortLE(index + 1);
                    identifier = buf.getUnsignedIntLE(index + 3);
                }
                if (namespace == 0 && identifier == 0) {
                    return 0;
                }
                hash = mix(SEED ^ ((long) namespace << 32 | identifier));
            }
            case 0x04 -> {
                namespace = buf.getUnsignedShortLE(index + 1);
                long high = buf.getLongLE(index + 3);
                long low = buf.getLongLE(index + 11);
                if (namespace == 0 && high == 0 && low == 0) {
                    return 0;
                }
                hash = mix(mix(mix(SEED + kind) ^ namespace) ^ high) ^ low;
            }
            default -> { // 0x03 string, 0x05 opaque
                namespace = buf.getUnsignedShortLE(index + 1);
                int length = buf.getIntLE(index + 3);
                if (namespace == 0 && length <= 0) {
                    return 0;
                }
                hash = mix(SEED + kind) ^ ((long) namespace << 32 | Math.max(0, length));
                int at = index + 7;
                int stop = at + Math.max(0, length);
                for (; stop - at >= 8; at += 8) {
                    hash = mix(hash) ^ buf.getLongLE(at);
                }
                for (; at < stop; at++) {
                    hash = mix(hash) ^ buf.getByte(at);
                }
            }
        }
        return mix(hash) | Long.MIN_VALUE;
    }

    /** SplitMix64's finaliser: every input bit affects every output bit. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
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
