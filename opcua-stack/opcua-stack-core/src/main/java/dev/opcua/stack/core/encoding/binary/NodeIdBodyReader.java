package dev.opcua.stack.core.encoding.binary;

import dev.opcua.stack.core.types.builtin.NodeId;
import io.netty.buffer.ByteBuf;

/**
 * Reads the body of a NodeId after its encoding byte (Part 6, 5.2.2.9): the two-byte, four-byte, numeric,
 * String, Guid and ByteString forms, through the decoder's {@link NodeIdCache} when it has one.
 *
 * <p>Static methods that read the {@link UaDecoder}'s own fields, not an object of their own: every message
 * goes through here, and this way a read costs no extra object, field load or virtual call.
 */
final class NodeIdBodyReader {

    private NodeIdBodyReader() {
    }

    /**
     * Reads the body that follows the encoding byte {@code encoding}, whose two high bits (the flags of an
     * ExpandedNodeId) are ignored here.
     */
    static NodeId read(UaDecoder d, String field, int encoding) {
        NodeIdCache nodeIds = d.nodeIds;
        int form = encoding & 0x3F;
        if (nodeIds == null || form < 0x01 || form > 0x05) {
            return decode(d, field, encoding);
        }
        ByteBuf buf = d.buf;
        int length = cacheableLength(buf, form);
        if (length < 0) {
            return decode(d, field, encoding);
        }
        int hash = NodeIdCache.hash(buf, form, length);
        NodeId cached = nodeIds.find(buf, hash, length);
        if (cached != null) {
            buf.skipBytes(length);
            return cached;
        }
        NodeId decoded = decode(d, field, encoding);
        nodeIds.offer(buf, hash, length, decoded);
        return decoded;
    }

    /**
     * Bytes of a NodeId's body after its encoding byte when they are all in the buffer and few enough to
     * cache, else -1 (then it is decoded as usual, with the usual checks and errors).
     */
    private static int cacheableLength(ByteBuf buf, int form) {
        int remaining = buf.readableBytes();
        int length;
        switch (form) {
            case 0x01 -> length = 3;
            case 0x02 -> length = 6;
            case 0x04 -> length = 18;
            default -> { // String or ByteString identifier: namespace, Int32 length, bytes
                if (remaining < 6) {
                    return -1;
                }
                int bytes = buf.getIntLE(buf.readerIndex() + 2);
                if (bytes < 0 || bytes > NodeIdCache.MAX_BYTES - 6) {
                    return -1;
                }
                length = 6 + bytes;
            }
        }
        return length <= remaining ? length : -1;
    }

    private static NodeId decode(UaDecoder d, String field, int encoding) {
        ByteBuf buf = d.buf;
        switch (encoding & 0x3F) {
            case 0x00:
                d.need(field, 1);
                return NodeId.ns0(buf.readUnsignedByte());
            case 0x01: {
                d.need(field, 3);
                int ns = buf.readUnsignedByte();
                int id = buf.readUnsignedShortLE();
                return ns == 0 ? NodeId.ns0(id) : NodeId.numeric(ns, id);
            }
            case 0x02: {
                d.need(field, 6);
                int ns = buf.readUnsignedShortLE();
                long id = buf.readUnsignedIntLE();
                return NodeId.numeric(ns, id);
            }
            case 0x03: {
                int ns = d.readUInt16(field);
                return NodeId.string(ns, d.readString(field));
            }
            case 0x04: {
                int ns = d.readUInt16(field);
                return NodeId.guid(ns, d.readGuid(field));
            }
            case 0x05: {
                int ns = d.readUInt16(field);
                return NodeId.opaque(ns, d.readByteString(field));
            }
            default:
                throw d.malformed(field, String.format("invalid NodeId encoding byte 0x%02X", encoding));
        }
    }
}
