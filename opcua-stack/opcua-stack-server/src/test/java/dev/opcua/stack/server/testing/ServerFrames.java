package dev.opcua.stack.server.testing;

import dev.opcua.stack.core.channel.AsymmetricSecurityHeader;
import dev.opcua.stack.core.channel.ChunkHeader;
import dev.opcua.stack.core.channel.ChunkType;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.channel.messages.ErrorMessage;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.security.ChunkCrypto;
import dev.opcua.stack.core.types.UaStructure;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;

/** Reads what a server sent: ERR statuses and secure conversation chunks with their decoded bodies. */
public final class ServerFrames {

    /** One decoded chunk of a single-chunk message (or an abort chunk, whose body is not a message). */
    public record Chunk(MessageType type, ChunkType chunkType, long secureChannelId,
            AsymmetricSecurityHeader securityHeader, long tokenId, long sequenceNumber, long requestId,
            UaStructure message, long abortStatus) {

        @SuppressWarnings("unchecked")
        public <T extends UaStructure> T body(Class<T> type) {
            if (!type.isInstance(message)) {
                throw new AssertionError("expected a " + type.getSimpleName() + ", was " + message);
            }
            return (T) message;
        }
    }

    private ServerFrames() {
    }

    /** Cuts bytes the server wrote (one write may carry several chunks) into frames by their MessageSize. */
    public static List<byte[]> split(List<byte[]> writes) {
        List<byte[]> frames = new ArrayList<>();
        for (byte[] write : writes) {
            ByteBuf buf = Unpooled.wrappedBuffer(write);
            while (buf.isReadable()) {
                int size = buf.getIntLE(buf.readerIndex() + 4);
                byte[] frame = new byte[size];
                buf.readBytes(frame);
                frames.add(frame);
            }
        }
        return frames;
    }

    /** The message type of a frame. */
    public static MessageType type(byte[] frame) {
        return MessageType.fromHeader(Unpooled.wrappedBuffer(frame).getIntLE(0));
    }

    /** The status code of an ERR frame. */
    public static int errorStatus(byte[] frame) {
        ByteBuf buf = Unpooled.wrappedBuffer(frame);
        return ErrorMessage.decode(buf).status().value();
    }

    /** The reason of an ERR frame. */
    public static String errorReason(byte[] frame) {
        return ErrorMessage.decode(Unpooled.wrappedBuffer(frame)).reason();
    }

    /** Parses an OPN, MSG or CLO chunk and decodes its body. */
    public static Chunk chunk(byte[] frame) {
        ByteBuf buf = Unpooled.wrappedBuffer(frame);
        ChunkHeader header = new ChunkHeader();
        header.read(buf, token -> ChunkCrypto.NONE);
        UaStructure message = null;
        long abortStatus = 0;
        if (header.chunkType() == ChunkType.ABORT) {
            abortStatus = buf.readUnsignedIntLE();
        } else {
            message = new UaDecoder(CodecRegistry.standard(), EncodingLimits.DEFAULT, buf).readMessage();
        }
        return new Chunk(header.messageType(), header.chunkType(), header.secureChannelId(),
                header.asymmetricHeader(), header.tokenId(), header.sequenceNumber(), header.requestId(), message,
                abortStatus);
    }
}
