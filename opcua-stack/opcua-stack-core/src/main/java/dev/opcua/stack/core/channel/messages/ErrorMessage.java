package dev.opcua.stack.core.channel.messages;

import static dev.opcua.stack.core.channel.messages.UacpCodec.readHeader;
import static dev.opcua.stack.core.channel.messages.UacpCodec.readUInt32;
import static dev.opcua.stack.core.channel.messages.UacpCodec.requireUInt32;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.types.builtin.StatusCode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

/**
 * Error, sent before the sender closes the connection on a protocol-level failure (Part 6, 7.1.2.5,
 * Table 74; the codes are in Part 6, 7.1.5).
 *
 * <p>The Reason "shall not be more than 4096 bytes" and a receiver ignores a longer one, so the
 * constructor cuts it, at a character boundary, to below 4096 UTF-8 bytes: a peer that reads the
 * limit as "less than" accepts it too.
 *
 * @param error the StatusCode as a UInt32 held in a long
 * @param reason a description for diagnostics; may be null
 */
public record ErrorMessage(long error, String reason) {

    private static final String NAME = "Error";

    /** Longest Reason a receiver accepts (Part 6, 7.1.2.5). */
    static final int MAX_REASON_BYTES = 4096;

    /** Longest Reason this end sends. */
    static final int MAX_SENT_REASON_BYTES = MAX_REASON_BYTES - 1;

    public ErrorMessage {
        requireUInt32("error", error);
        reason = truncateUtf8(reason, MAX_SENT_REASON_BYTES);
    }

    /** An Error with the status code's 32 bits. */
    public static ErrorMessage of(int statusCode, String reason) {
        return new ErrorMessage(statusCode & 0xFFFF_FFFFL, reason);
    }

    /** The error as a StatusCode. */
    public StatusCode status() {
        return StatusCode.ofUnsigned(error);
    }

    /** Writes the whole message, header included. */
    public void encode(ByteBuf out) {
        int start = UacpCodec.writeHeader(out, MessageType.ERR);
        UacpCodec.writeUInt32(out, error);
        UacpCodec.writeString(out, reason);
        UacpCodec.patchSize(out, start);
    }

    /**
     * Reads a whole ERR frame, header included, leaving the reader index at its end. A Reason over
     * 4096 bytes is ignored and read as null (Part 6, 7.1.2.5). The frame is not released.
     *
     * @throws UaException {@code BadDecodingError} for a truncated or malformed frame,
     *         {@code BadTcpMessageTypeInvalid} for another message type
     */
    public static ErrorMessage decode(ByteBuf frame) {
        readHeader(frame, MessageType.ERR, NAME);
        long error = readUInt32(frame, NAME, "Error");
        String reason = UacpCodec.readStringOrNull(frame, NAME, "Reason", MAX_REASON_BYTES);
        frame.skipBytes(frame.readableBytes());
        return new ErrorMessage(error, reason);
    }

    /** The longest prefix of {@code value} whose UTF-8 form has at most {@code maxBytes}; whole code points only. */
    static String truncateUtf8(String value, int maxBytes) {
        // A char never takes more than 3 UTF-8 bytes (a surrogate pair takes 4 for 2 chars).
        if (value == null || value.length() * 3 <= maxBytes || ByteBufUtil.utf8Bytes(value) <= maxBytes) {
            return value;
        }
        int bytes = 0;
        int i = 0;
        while (i < value.length()) {
            int codePoint = value.codePointAt(i);
            // A lone surrogate counts 3 although the encoder writes it as one '?': cutting early is harmless.
            int width = codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
            if (bytes + width > maxBytes) {
                break;
            }
            bytes += width;
            i += Character.charCount(codePoint);
        }
        return value.substring(0, i);
    }
}
