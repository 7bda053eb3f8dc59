package dev.opcua.stack.pubsub.message.uadp;

import dev.opcua.stack.pubsub.message.MetaDataLookup;
import static dev.opcua.stack.pubsub.message.uadp.UadpBits.*;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.UadpNetworkMessageContentMask;
import dev.opcua.stack.core.types.structured.DataSetMetaDataType;
import dev.opcua.stack.pubsub.message.DataSetMessage;
import dev.opcua.stack.pubsub.message.MetaDataMessage;
import dev.opcua.stack.pubsub.message.NetworkMessage;
import dev.opcua.stack.pubsub.message.PublisherId;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Writes {@link NetworkMessage}s as UADP network messages (Part 14, 7.2.4.4) in the header layout a
 * {@link UadpLayout} gives, and {@link MetaDataMessage}s as DataSetMetaData discovery announcements
 * (7.2.4.6.4). Values go through the UA Binary codec ({@link UaEncoder}).
 *
 * <p>The layout is the publisher's configuration; the message supplies the values. Header fields the model does
 * not hold are written as: NetworkMessageNumber 1 (one network message per WriterGroup and publishing interval,
 * 7.2.4.4.2), the network Timestamp from the clock given here, PicoSeconds 0. A header field the layout asks
 * for but the message lacks (a PublisherId, a DataSetClassId) is an error rather than a made-up value.
 *
 * <p>The metadata lookup is asked with the message's PublisherId, WriterGroupId and each DataSetMessage's
 * DataSetWriterId as the model holds them, whatever the layout leaves out; a subscriber's decoder only sees what
 * the header carries (writer id 0 without a PayloadHeader), so its lookup must answer for that.
 *
 * <p>No security: the SecurityHeader is never written for data messages. A discovery announcement carries one,
 * since 7.2.4.6.3 requires its flag, with SecurityFlags 0 (neither signed nor encrypted), SecurityTokenId 0
 * and no nonce. Promoted fields and chunking are not supported: a layout with PromotedFields is refused when the
 * encoder is made.
 *
 * <p>Immutable and thread-safe. A failed encode leaves the buffer's writer index where it was and throws a
 * {@link UaEncodingException} ({@code BadEncodingError}) naming the part of the message.
 */
public final class UadpMessageEncoder {

    private final CodecRegistry registry;
    private final UadpLayout layout;
    private final MetaDataLookup metaData;
    private final Supplier<DateTime> clock;
    private final UadpDataSetMessageWriter dataSetMessages;

    /**
     * @param registry the codecs for structure values in fields and for DataSetMetaDataType
     * @param layout what the headers hold and how fields are encoded
     * @param metaData the metadata of the data sets, needed for RawData fields only
     * @param clock the network message Timestamp, when the layout has it
     * @throws IllegalArgumentException when the layout asks for PromotedFields
     */
    public UadpMessageEncoder(CodecRegistry registry, UadpLayout layout, MetaDataLookup metaData,
            Supplier<DateTime> clock) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.layout = Objects.requireNonNull(layout, "layout");
        this.metaData = Objects.requireNonNull(metaData, "metaData");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (layout.network(UadpNetworkMessageContentMask.PromotedFields)) {
            throw new IllegalArgumentException("UADP PromotedFields (Part 14, 7.2.4.4.2) are not supported");
        }
        this.dataSetMessages = new UadpDataSetMessageWriter(layout);
    }

    /** An encoder with the standard codecs, no metadata (Variant and DataValue fields) and the system clock. */
    public UadpMessageEncoder(UadpLayout layout) {
        this(CodecRegistry.standard(), layout, MetaDataLookup.NONE, DateTime::now);
    }

    public UadpLayout layout() {
        return layout;
    }

    /** The message's bytes in a new array. */
    public byte[] encode(NetworkMessage message) {
        ByteBuf buf = Unpooled.buffer(256);
        try {
            encode(message, buf);
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    /** Appends the message to {@code out}; on failure {@code out} is left as it was. */
    public void encode(NetworkMessage message, ByteBuf out) {
        int start = out.writerIndex();
        try {
            writeNetworkMessage(new UaEncoder(registry, out), message);
        } catch (RuntimeException e) {
            out.writerIndex(start);
            if (e instanceof UaEncodingException) {
                throw e;
            }
            throw new UaEncodingException(StatusCodes.BadEncodingError,
                    "NetworkMessage: " + e.getMessage(), e);
        }
    }

    private void writeNetworkMessage(UaEncoder encoder, NetworkMessage message) {
        List<DataSetMessage> messages = message.messages();
        boolean payloadHeader = layout.network(UadpNetworkMessageContentMask.PayloadHeader);
        if (messages.isEmpty()) {
            throw UaEncodingException.encodingError("NetworkMessage: has no DataSetMessage; a UADP data message"
                    + " carries at least one (7.2.4.5.2)");
        }
        if (payloadHeader && messages.size() > 0xFF) {
            throw UaEncodingException.encodingError("PayloadHeader.Count: " + messages.size()
                    + " DataSetMessages exceed the Byte count; split them into several network messages");
        }
        if (!payloadHeader && messages.size() > 1) {
            throw UaEncodingException.encodingError("NetworkMessage: " + messages.size() + " DataSetMessages need"
                    + " the PayloadHeader (their writer ids and sizes), which the layout leaves out");
        }
        boolean groupHeader = layout.network(UadpNetworkMessageContentMask.GroupHeader);
        boolean timestamp = layout.network(UadpNetworkMessageContentMask.Timestamp);
        writeHeader(encoder, message.publisherId(), message.dataSetClassId(), groupHeader, payloadHeader, timestamp,
                false, TYPE_DATA_SET_MESSAGE);
        if (groupHeader) {
            writeGroupHeader(encoder, message);
        }
        if (payloadHeader) {
            encoder.writeByte("PayloadHeader.Count", (short) messages.size());
            for (DataSetMessage m : messages) {
                encoder.writeUInt16("PayloadHeader.DataSetWriterIds", m.dataSetWriterId());
            }
        }
        if (timestamp) {
            encoder.writeDateTime("Timestamp", clock.get());
            if (layout.network(UadpNetworkMessageContentMask.PicoSeconds)) {
                encoder.writeUInt16("PicoSeconds", 0);
            }
        }
        writePayload(encoder, message, payloadHeader && messages.size() > 1);
    }

    /**
     * UADPVersion and UADPFlags, ExtendedFlags1, ExtendedFlags2, PublisherId and DataSetClassId (Table 154).
     *
     * @param dataSetClassId written when the layout asks for it (data messages only), then not null
     */
    private void writeHeader(UaEncoder encoder, PublisherId publisherId, UUID dataSetClassId,
            boolean groupHeader, boolean payloadHeader, boolean timestamp, boolean security, int messageType) {
        boolean withPublisherId = messageType != TYPE_DATA_SET_MESSAGE
                || layout.network(UadpNetworkMessageContentMask.PublisherId);
        if (withPublisherId && publisherId == null) {
            throw UaEncodingException.encodingError("PublisherId: the layout includes it but the message has none");
        }
        boolean withClassId = messageType == TYPE_DATA_SET_MESSAGE
                && layout.network(UadpNetworkMessageContentMask.DataSetClassId);
        if (withClassId && dataSetClassId == null) {
            throw UaEncodingException.encodingError("DataSetClassId: the layout includes it but the message has none");
        }
        int flags2 = messageType << MESSAGE_TYPE_SHIFT;
        int flags1 = (withPublisherId ? UadpPublisherIds.typeBits(publisherId) : 0)
                | (withClassId ? DATA_SET_CLASS_ID : 0)
                | (security ? SECURITY : 0)
                | (timestamp ? TIMESTAMP : 0)
                | (timestamp && layout.network(UadpNetworkMessageContentMask.PicoSeconds) ? PICOSECONDS : 0)
                | (flags2 != 0 ? EXTENDED_FLAGS2 : 0);
        int first = VERSION | (withPublisherId ? PUBLISHER_ID : 0) | (groupHeader ? GROUP_HEADER : 0)
                | (payloadHeader ? PAYLOAD_HEADER : 0) | (flags1 != 0 ? EXTENDED_FLAGS1 : 0);
        encoder.writeByte("UADPFlags", (short) first);
        if (flags1 != 0) {
            encoder.writeByte("ExtendedFlags1", (short) flags1);
        }
        if (flags2 != 0) {
            encoder.writeByte("ExtendedFlags2", (short) flags2);
        }
        if (withPublisherId) {
            UadpPublisherIds.write(encoder, publisherId);
        }
        if (withClassId) {
            encoder.writeGuid("DataSetClassId", dataSetClassId);
        }
    }

    /** GroupFlags, WriterGroupId, GroupVersion, NetworkMessageNumber, SequenceNumber (Table 154). */
    private void writeGroupHeader(UaEncoder encoder, NetworkMessage message) {
        boolean writerGroupId = layout.network(UadpNetworkMessageContentMask.WriterGroupId);
        boolean groupVersion = layout.network(UadpNetworkMessageContentMask.GroupVersion);
        boolean number = layout.network(UadpNetworkMessageContentMask.NetworkMessageNumber);
        boolean sequenceNumber = layout.network(UadpNetworkMessageContentMask.SequenceNumber);
        int flags = (writerGroupId ? GROUP_WRITER_GROUP_ID : 0) | (groupVersion ? GROUP_VERSION : 0)
                | (number ? GROUP_NETWORK_MESSAGE_NUMBER : 0) | (sequenceNumber ? GROUP_SEQUENCE_NUMBER : 0);
        encoder.writeByte("GroupHeader.GroupFlags", (short) flags);
        if (writerGroupId) {
            encoder.writeUInt16("GroupHeader.WriterGroupId", message.writerGroupId());
        }
        if (groupVersion) {
            encoder.writeUInt32("GroupHeader.GroupVersion", message.groupVersion() & 0xFFFF_FFFFL);
        }
        if (number) {
            encoder.writeUInt16("GroupHeader.NetworkMessageNumber", 1);
        }
        if (sequenceNumber) {
            encoder.writeUInt16("GroupHeader.SequenceNumber", message.sequenceNumber() & 0xFFFF);
        }
    }

    /** Sizes (when more than one message, Table 161), then each DataSetMessage. */
    private void writePayload(UaEncoder encoder, NetworkMessage message, boolean sizes) {
        ByteBuf buf = encoder.buffer();
        List<DataSetMessage> messages = message.messages();
        int sizesAt = buf.writerIndex();
        if (sizes) {
            buf.writeZero(2 * messages.size());
        }
        for (int i = 0; i < messages.size(); i++) {
            DataSetMessage m = messages.get(i);
            String path = "DataSetMessage[" + i + "](writer " + m.dataSetWriterId() + ")";
            DataSetMetaDataType meta = metaData.find(message.publisherId(), message.writerGroupId(),
                    m.dataSetWriterId());
            int start = buf.writerIndex();
            dataSetMessages.write(encoder, m, meta, path);
            int size = buf.writerIndex() - start;
            if (sizes) {
                if (size > 0xFFFF) {
                    throw UaEncodingException.encodingError(path + ": " + size + " bytes exceed the UInt16 Sizes"
                            + " entry; a UADP payload over 65535 bytes needs chunking, which is not supported");
                }
                buf.setShortLE(sizesAt + 2 * i, size);
            }
        }
    }

    /** The announcement's bytes in a new array; see {@link #encodeMetaData(MetaDataMessage, int, ByteBuf)}. */
    public byte[] encodeMetaData(MetaDataMessage message, int sequenceNumber) {
        ByteBuf buf = Unpooled.buffer(256);
        try {
            encodeMetaData(message, sequenceNumber, buf);
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    /**
     * Appends a DataSetMetaData discovery announcement (7.2.4.6.3, 7.2.4.6.4): the network header with the
     * PublisherId and the flags 7.2.4.6.3 fixes, an empty SecurityHeader, AnnouncementType 2 and the
     * SequenceNumber, then DataSetWriterId, the DataSetMetaDataType and status Good.
     *
     * @param sequenceNumber the publisher's announcement counter (UInt16; wraps)
     */
    public void encodeMetaData(MetaDataMessage message, int sequenceNumber, ByteBuf out) {
        if (message.dataSetWriterId() < 0 || message.dataSetWriterId() > 0xFFFF) {
            throw UaEncodingException.encodingError("DataSetWriterId: " + message.dataSetWriterId()
                    + " is not a UInt16");
        }
        int start = out.writerIndex();
        try {
            UaEncoder encoder = new UaEncoder(registry, out);
            writeHeader(encoder, message.publisherId(), null, false, false, false, true,
                    TYPE_DISCOVERY_ANNOUNCEMENT);
            writeEmptySecurityHeader(encoder);
            encoder.writeByte("AnnouncementType", (short) ANNOUNCEMENT_DATA_SET_META_DATA);
            encoder.writeUInt16("SequenceNumber", sequenceNumber & 0xFFFF);
            encoder.writeUInt16("DataSetWriterId", message.dataSetWriterId());
            encoder.writeStruct("MetaData", message.metaData(), DataSetMetaDataType.CODEC);
            encoder.writeStatusCode("StatusCode", StatusCode.GOOD);
        } catch (RuntimeException e) {
            out.writerIndex(start);
            if (e instanceof UaEncodingException) {
                throw e;
            }
            throw new UaEncodingException(StatusCodes.BadEncodingError,
                    "DataSetMetaData announcement: " + e.getMessage(), e);
        }
    }

    /** SecurityFlags 0, SecurityTokenId 0, NonceLength 0 (7.2.4.4.3): a header that applies no security. */
    private static void writeEmptySecurityHeader(UaEncoder encoder) {
        encoder.writeByte("SecurityHeader.SecurityFlags", (short) 0);
        encoder.writeUInt32("SecurityHeader.SecurityTokenId", 0);
        encoder.writeByte("SecurityHeader.NonceLength", (short) 0);
    }
}
