package dev.opcua.stack.core.channel.messages;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.channel.ChunkType;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.ids.StatusCodes;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;

/**
 * Wire helpers shared by the UA TCP connection messages: the 8-byte header (Part 6, 7.1.2.2), UInt32
 * and String fields (Part 6, 5.2.2), little-endian. Decoding failures are {@code BadDecodingError}
 * with a message that starts with the field, e.g. {@code Hello.EndpointUrl: needs 4 bytes but only 2
 * remain}.
 */
final class UacpCodec {

    static final int HEADER_SIZE = 8;

    /** Limit of EndpointUrl and ServerUri: the encoded value "shall be less than 4096 bytes" (Part 6, 7.1.2.3). */
    static final int MAX_URL_BYTES = 4095;

    private UacpCodec() {
    }

    /** Writes the header with a zero size and returns its index for {@link #patchSize}. */
    static int writeHeader(ByteBuf out, MessageType type) {
        int start = out.writerIndex();
        out.writeIntLE(type.code() | (ChunkType.FINAL.ascii() << 24));
        out.writeIntLE(0);
        return start;
    }

    /** Sets the MessageSize of the header at {@code start} to everything written since. */
    static void patchSize(ByteBuf out, int start) {
        out.setIntLE(start + 4, out.writerIndex() - start);
    }

    static void writeUInt32(ByteBuf out, long value) {
        out.writeIntLE((int) value);
    }

    static void writeString(ByteBuf out, String value) {
        if (value == null) {
            out.writeIntLE(-1);
            return;
        }
        int length = ByteBufUtil.utf8Bytes(value);
        out.writeIntLE(length);
        ByteBufUtil.reserveAndWriteUtf8(out, value, length);
    }

    /**
     * Reads the header of a whole frame and checks its type and that its MessageSize is the frame's
     * length; the reader index is left at the first body byte.
     */
    static void readHeader(ByteBuf frame, MessageType expected, String message) {
        int length = frame.readableBytes();
        if (length < HEADER_SIZE) {
            throw malformed(message, "header", "needs " + HEADER_SIZE + " bytes but only " + length + " remain");
        }
        int typeBytes = frame.readIntLE();
        if (MessageType.fromHeader(typeBytes) != expected) {
            throw new UaException(StatusCodes.BadTcpMessageTypeInvalid,
                    message + ": expected message type " + expected + ", was " + MessageType.describe(typeBytes));
        }
        long size = frame.readUnsignedIntLE();
        if (size != length) {
            throw malformed(message, "MessageSize", size + " does not match the frame length " + length);
        }
    }

    static long readUInt32(ByteBuf frame, String message, String field) {
        need(frame, message, field, 4);
        return frame.readUnsignedIntLE();
    }

    /**
     * Reads a String that must be at most {@code maxBytes} long; a longer one fails with
     * {@code overLimitStatus}, checked before its bytes are looked at.
     */
    static String readString(ByteBuf frame, String message, String field, int maxBytes, int overLimitStatus) {
        int length = readStringLength(frame, message, field);
        if (length > maxBytes) {
            throw new UaException(overLimitStatus, message + "." + field + ": length " + length
                    + " exceeds the limit of " + maxBytes + " bytes");
        }
        return readUtf8(frame, message, field, length);
    }

    /** Reads a String; one longer than {@code maxBytes} is skipped and read as null. */
    static String readStringOrNull(ByteBuf frame, String message, String field, int maxBytes) {
        int length = readStringLength(frame, message, field);
        if (length > maxBytes) {
            need(frame, message, field, length);
            frame.skipBytes(length);
            return null;
        }
        return readUtf8(frame, message, field, length);
    }



    /** UTF-8 length of a String, 0 for null. */
    static int utf8Length(String value) {
        return value == null ? 0 : ByteBufUtil.utf8Bytes(value);
    }

    /** Requires a UInt32 held in a long; a value outside 0..2^32-1 would be written wrapped. */
    static void requireUInt32(String field, long value) {
        if (value < 0 || value > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException(field + " must be a UInt32 (0 to 4294967295), was " + value);
        }
    }

    /** Requires a URL-like String below 4096 UTF-8 bytes, else {@code BadTcpEndpointUrlInvalid}. */
    static void requireUrlLength(String message, String field, String value) {
        int length = utf8Length(value);
        if (length > MAX_URL_BYTES) {
            throw new UaException(StatusCodes.BadTcpEndpointUrlInvalid, message + "." + field + ": length "
                    + length + " exceeds the limit of " + MAX_URL_BYTES + " bytes (Part 6, 7.1.2.3)");
        }
    }

    private static int readStringLength(ByteBuf frame, String message, String field) {
        need(frame, message, field, 4);
        int length = frame.readIntLE();
        if (length < -1) {
            throw malformed(message, field, "negative length " + length);
        }
        return length;
    }

    private static String readUtf8(ByteBuf frame, String message, String field, int length) {
        if (length < 0) {
            return null;
        }
        need(frame, message, field, length);
        String value = frame.toString(frame.readerIndex(), length, StandardCharsets.UTF_8);
        frame.skipBytes(length);
        return value;
    }

    private static void need(ByteBuf frame, String message, String field, int bytes) {
        int remaining = frame.readableBytes();
        if (remaining < bytes) {
            throw malformed(message, field, "needs " + bytes + " bytes but only " + remaining + " remain");
        }
    }

    private static UaEncodingException malformed(String message, String field, String detail) {
        return UaEncodingException.decodingError(message + "." + field + ": " + detail);
    }
}
