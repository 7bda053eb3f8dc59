package dev.opcua.stack.pubsub.message.uadp;

import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.pubsub.message.PublisherId;

/**
 * The PublisherId field of the UADP network message header and its type in bits 0-2 of ExtendedFlags1
 * (Part 14, 7.2.4.4.2, Table 154): 000 Byte, 001 UInt16, 010 UInt32, 011 UInt64, 100 String; 101 to 111 are
 * reserved.
 */
final class UadpPublisherIds {

    private UadpPublisherIds() {
    }

    /** The PublisherId Type bits of ExtendedFlags1 for this id. */
    static int typeBits(PublisherId id) {
        return switch (id.type()) {
            case Byte -> 0;
            case UInt16 -> 1;
            case UInt32 -> 2;
            case UInt64 -> 3;
            case String -> 4;
            default -> throw new IllegalStateException("PublisherId of type " + id.type()); // the record refuses these
        };
    }

    static void write(UaEncoder encoder, PublisherId id) {
        switch (id.type()) {
            case Byte -> encoder.writeByte("PublisherId", (Short) id.value());
            case UInt16 -> encoder.writeUInt16("PublisherId", (Integer) id.value());
            case UInt32 -> encoder.writeUInt32("PublisherId", (Long) id.value());
            case UInt64 -> encoder.writeUInt64("PublisherId", (Long) id.value());
            case String -> encoder.writeString("PublisherId", (String) id.value());
            default -> throw new IllegalStateException("PublisherId of type " + id.type());
        }
    }

    /** Reads a PublisherId of the type the ExtendedFlags1 bits name. */
    static PublisherId read(UaDecoder decoder, int typeBits) {
        return switch (typeBits) {
            case 0 -> PublisherId.ofByte(decoder.readByte("PublisherId"));
            case 1 -> PublisherId.ofUInt16(decoder.readUInt16("PublisherId"));
            case 2 -> PublisherId.ofUInt32(decoder.readUInt32("PublisherId"));
            case 3 -> PublisherId.ofUInt64(decoder.readUInt64("PublisherId"));
            case 4 -> {
                String s = decoder.readString("PublisherId");
                if (s == null || s.isEmpty()) {
                    throw UaEncodingException.decodingError("PublisherId: a String PublisherId cannot be "
                            + (s == null ? "null" : "empty"));
                }
                yield PublisherId.ofString(s);
            }
            default -> throw UaEncodingException.decodingError("ExtendedFlags1: PublisherId Type " + typeBits
                    + " is reserved");
        };
    }
}
