package dev.opcua.stack.pubsub.message.uadp;

import dev.opcua.stack.pubsub.message.MetaDataLookup;
import static dev.opcua.stack.pubsub.message.uadp.UadpBits.*;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.DataSetMetaDataType;
import dev.opcua.stack.pubsub.message.DataSetMessage;
import dev.opcua.stack.pubsub.message.MetaDataMessage;
import dev.opcua.stack.pubsub.message.NetworkMessage;
import dev.opcua.stack.pubsub.message.PublisherId;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * Reads UADP network messages (Part 14, 7.2.4.4) of any header variant: the flags of each header say which
 * fields follow, so no layout is needed. Values go through the UA Binary codec ({@link UaDecoder}) under its
 * {@link EncodingLimits}; RawData fields and field names come from a {@link MetaDataLookup}.
 *
 * <p>Malformed input of any kind is a {@link UaEncodingException} with {@code BadDecodingError}, or
 * {@code BadEncodingLimitsExceeded} past a limit, whose message starts with the part of the message that
 * failed; nothing else is thrown. What this decoder does not implement is refused the same way, never skipped
 * silently: a UADPVersion other than 1, a SecurityHeader on a data message (signed or encrypted messages,
 * 7.2.4.4.3), one that signs or encrypts on an announcement, chunks (7.2.4.4.4), promoted fields, discovery
 * probes and announcements other than DataSetMetaData, reserved PublisherId types, field encodings and
 * DataSetMessage types.
 *
 * <p>DataSetMessages whose DataSetFlags1 says they are not valid are left out of the result (Table 162: the
 * subscriber shall not process them); their bytes are skipped by their size when the Sizes array gives it.
 * Header fields the model has no place for (NetworkMessageNumber, the network Timestamp and PicoSeconds, the
 * DataSetMessage PicoSeconds) are read and dropped.
 *
 * <p>Immutable and thread-safe: each call uses its own {@link UaDecoder}. The buffer's reader index is moved
 * past what was read; the caller keeps ownership of the buffer.
 */
public final class UadpMessageDecoder {

    private final CodecRegistry registry;
    private final EncodingLimits limits;
    private final MetaDataLookup metaData;

    public UadpMessageDecoder(CodecRegistry registry, EncodingLimits limits, MetaDataLookup metaData) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.metaData = Objects.requireNonNull(metaData, "metaData");
    }

    /** A decoder with the standard codecs and {@link EncodingLimits#DEFAULT}. */
    public UadpMessageDecoder(MetaDataLookup metaData) {
        this(CodecRegistry.standard(), EncodingLimits.DEFAULT, metaData);
    }

    public UadpMessage decode(byte[] bytes) {
        return decode(Unpooled.wrappedBuffer(bytes));
    }

    /** Reads one network message: data set messages or a DataSetMetaData announcement. */
    public UadpMessage decode(ByteBuf buf) {
        try {
            return read(new UaDecoder(registry, limits, buf));
        } catch (IllegalArgumentException e) {
            // A model constructor refused a decoded value: malformed input.
            throw UaEncodingException.decodingError("UADP NetworkMessage: " + e.getMessage());
        }
    }

    /** Reads one network message that must carry data set messages. */
    public NetworkMessage decodeNetworkMessage(ByteBuf buf) {
        UadpMessage message = decode(buf);
        if (message instanceof UadpMessage.Data data) {
            return data.message();
        }
        throw UaEncodingException.decodingError("UADP NetworkMessage: a discovery announcement, not data set"
                + " messages");
    }

    public NetworkMessage decodeNetworkMessage(byte[] bytes) {
        return decodeNetworkMessage(Unpooled.wrappedBuffer(bytes));
    }

    private UadpMessage read(UaDecoder decoder) {
        int first = decoder.readByte("UADPVersion");
        int version = first & VERSION_MASK;
        if (version != VERSION) {
            throw UaEncodingException.decodingError("UADPVersion: " + version + " is not supported, only "
                    + VERSION);
        }
        int flags1 = (first & EXTENDED_FLAGS1) != 0 ? decoder.readByte("ExtendedFlags1") : 0;
        int flags2 = (flags1 & EXTENDED_FLAGS2) != 0 ? decoder.readByte("ExtendedFlags2") : 0;
        if ((flags2 & CHUNK) != 0) {
            throw UaEncodingException.decodingError("ExtendedFlags2: chunked network messages (7.2.4.4.4) are"
                    + " not supported");
        }
        if ((flags2 & PROMOTED_FIELDS) != 0) {
            throw UaEncodingException.decodingError("ExtendedFlags2: PromotedFields are not supported");
        }
        int type = (flags2 & MESSAGE_TYPE_MASK) >> MESSAGE_TYPE_SHIFT;
        if (type == TYPE_DISCOVERY_PROBE) {
            throw UaEncodingException.decodingError("ExtendedFlags2: discovery probes (7.2.4.6.12) are not supported");
        }
        if (type != TYPE_DATA_SET_MESSAGE && type != TYPE_DISCOVERY_ANNOUNCEMENT) {
            throw UaEncodingException.decodingError("ExtendedFlags2: network message type " + type
                    + " is not supported");
        }
        PublisherId publisherId = (first & PUBLISHER_ID) != 0
                ? UadpPublisherIds.read(decoder, flags1 & PUBLISHER_ID_TYPE_MASK) : null;
        UUID dataSetClassId = (flags1 & DATA_SET_CLASS_ID) != 0 ? decoder.readGuid("DataSetClassId") : null;
        return type == TYPE_DATA_SET_MESSAGE
                ? new UadpMessage.Data(readData(decoder, first, flags1, publisherId, dataSetClassId))
                : readAnnouncement(decoder, first, flags1, publisherId);
    }

    private NetworkMessage readData(UaDecoder decoder, int first, int flags1, PublisherId publisherId,
            UUID dataSetClassId) {
        int writerGroupId = 0;
        long groupVersion = 0;
        int sequenceNumber = 0;
        if ((first & GROUP_HEADER) != 0) {
            int groupFlags = decoder.readByte("GroupHeader.GroupFlags");
            if ((groupFlags & GROUP_WRITER_GROUP_ID) != 0) {
                writerGroupId = decoder.readUInt16("GroupHeader.WriterGroupId");
            }
            if ((groupFlags & GROUP_VERSION) != 0) {
                groupVersion = decoder.readUInt32("GroupHeader.GroupVersion");
            }
            if ((groupFlags & GROUP_NETWORK_MESSAGE_NUMBER) != 0) {
                decoder.readUInt16("GroupHeader.NetworkMessageNumber");
            }
            if ((groupFlags & GROUP_SEQUENCE_NUMBER) != 0) {
                sequenceNumber = decoder.readUInt16("GroupHeader.SequenceNumber");
            }
        }
        int[] writerIds = null;
        if ((first & PAYLOAD_HEADER) != 0) {
            int count = decoder.readByte("PayloadHeader.Count");
            if (count == 0) {
                throw UaEncodingException.decodingError("PayloadHeader.Count: 0, but a data message carries at"
                        + " least one DataSetMessage (7.2.4.5.2)");
            }
            writerIds = new int[count];
            for (int i = 0; i < count; i++) {
                writerIds[i] = decoder.readUInt16("PayloadHeader.DataSetWriterIds[" + i + "]");
            }
        }
        readExtendedHeader(decoder, flags1);
        if ((flags1 & SECURITY) != 0) {
            throw UaEncodingException.decodingError("ExtendedFlags1: the message is secured (SecurityHeader,"
                    + " 7.2.4.4.3); signed or encrypted UADP messages are not supported");
        }
        List<DataSetMessage> messages = readPayload(decoder, publisherId, writerGroupId, writerIds);
        return new NetworkMessage(null, publisherId, writerGroupId, groupVersion, sequenceNumber, dataSetClassId,
                messages);
    }

    /** Timestamp and PicoSeconds of the network message; the model keeps neither. */
    private static void readExtendedHeader(UaDecoder decoder, int flags1) {
        if ((flags1 & TIMESTAMP) != 0) {
            decoder.readDateTime("Timestamp");
        }
        if ((flags1 & PICOSECONDS) != 0) {
            decoder.readUInt16("PicoSeconds");
        }
    }

    /** Sizes when the payload header lists more than one writer (Table 161), then the DataSetMessages. */
    private List<DataSetMessage> readPayload(UaDecoder decoder, PublisherId publisherId, int writerGroupId,
            int[] writerIds) {
        ByteBuf buf = decoder.buffer();
        int count = writerIds == null ? 1 : writerIds.length;
        int[] sizes = null;
        if (count > 1) {
            sizes = new int[count];
            long total = 0;
            for (int i = 0; i < count; i++) {
                sizes[i] = decoder.readUInt16("Sizes[" + i + "]");
                total += sizes[i];
            }
            if (total > buf.readableBytes()) {
                throw UaEncodingException.decodingError("Sizes: the DataSetMessages add up to " + total
                        + " bytes but only " + buf.readableBytes() + " remain");
            }
        }
        List<DataSetMessage> messages = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int writerId = writerIds == null ? 0 : writerIds[i];
            String path = "DataSetMessage[" + i + "](writer " + writerId + ")";
            String writer = "DataSetWriter " + writerId + " (publisher " + publisherId + ", WriterGroup "
                    + writerGroupId + ")";
            DataSetMetaDataType meta = metaData.find(publisherId, writerGroupId, writerId);
            // With Sizes, each message is read from a slice of exactly its size: a message that reads past
            // its size is malformed, bytes it leaves are padding.
            ByteBuf slice = sizes == null ? buf : buf.readSlice(sizes[i]);
            decoder.setBuffer(slice);
            DataSetMessage message = UadpDataSetMessageReader.read(decoder, writerId, meta, path, writer);
            if (message != null) {
                messages.add(message);
            }
        }
        decoder.setBuffer(buf);
        return messages;
    }

    /** A discovery announcement (7.2.4.6.3): only the DataSetMetaData one (AnnouncementType 2) is read. */
    private UadpMessage readAnnouncement(UaDecoder decoder, int first, int flags1, PublisherId publisherId) {
        if ((first & (GROUP_HEADER | PAYLOAD_HEADER)) != 0) {
            throw UaEncodingException.decodingError("UADPFlags: a discovery announcement has neither GroupHeader"
                    + " nor PayloadHeader (7.2.4.6.3)");
        }
        if (publisherId == null) {
            throw UaEncodingException.decodingError("UADPFlags: a discovery announcement has a PublisherId"
                    + " (7.2.4.6.3)");
        }
        readExtendedHeader(decoder, flags1);
        if ((flags1 & SECURITY) != 0) {
            readUnsecuredSecurityHeader(decoder);
        }
        int announcementType = decoder.readByte("AnnouncementType");
        if (announcementType != ANNOUNCEMENT_DATA_SET_META_DATA) {
            throw UaEncodingException.decodingError("AnnouncementType: " + announcementType
                    + " is not supported, only 2 (DataSetMetaData)");
        }
        int sequenceNumber = decoder.readUInt16("SequenceNumber");
        int writerId = decoder.readUInt16("DataSetWriterId");
        DataSetMetaDataType meta = decoder.readStruct("MetaData", DataSetMetaDataType.CODEC);
        StatusCode status = decoder.readStatusCode("StatusCode");
        return new UadpMessage.MetaData(new MetaDataMessage(publisherId, writerId, meta), sequenceNumber, status);
    }

    /**
     * The SecurityHeader (7.2.4.4.3) that discovery announcements always carry: accepted only when it applies
     * no security (neither signed nor encrypted, no footer); the nonce is skipped.
     */
    private static void readUnsecuredSecurityHeader(UaDecoder decoder) {
        int securityFlags = decoder.readByte("SecurityHeader.SecurityFlags");
        if ((securityFlags & (SECURITY_SIGNED | SECURITY_ENCRYPTED | SECURITY_FOOTER)) != 0) {
            throw UaEncodingException.decodingError(String.format("SecurityHeader.SecurityFlags: 0x%02X signs or"
                    + " encrypts the message; secured UADP messages are not supported", securityFlags));
        }
        decoder.readUInt32("SecurityHeader.SecurityTokenId");
        int nonceLength = decoder.readByte("SecurityHeader.NonceLength");
        ByteBuf buf = decoder.buffer();
        if (nonceLength > buf.readableBytes()) {
            throw UaEncodingException.decodingError("SecurityHeader.MessageNonce: needs " + nonceLength
                    + " bytes but only " + buf.readableBytes() + " remain");
        }
        buf.skipBytes(nonceLength);
    }
}
