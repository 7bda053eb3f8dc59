package dev.opcua.stack.pubsub.message.uadp;

import dev.opcua.stack.core.types.enumerated.DataSetFieldContentMask;
import dev.opcua.stack.core.types.enumerated.UadpDataSetMessageContentMask;
import dev.opcua.stack.core.types.enumerated.UadpNetworkMessageContentMask;

/**
 * What a publisher puts into its UADP messages: the three content masks of a WriterGroup and its
 * DataSetWriters (Part 14, 6.3.1.1.1 UadpNetworkMessageContentMask, 6.3.1.3.2 UadpDataSetMessageContentMask,
 * 6.2.4.2 DataSetFieldContentMask). They set the flags of the network message header (7.2.4.4.2), the
 * DataSetMessage header (7.2.4.5.4) and the field encoding. A subscriber does not need the layout: every
 * header says in its own flags what follows.
 *
 * <p>The masks are the {@code long} constants of {@link UadpNetworkMessageContentMask},
 * {@link UadpDataSetMessageContentMask} and {@link DataSetFieldContentMask}, or-ed together. Bits those types do
 * not define are refused here, so that a typo does not silently drop a header field.
 *
 * @param networkMessageContentMask PublisherId, GroupHeader, WriterGroupId, GroupVersion, NetworkMessageNumber,
 *        SequenceNumber, PayloadHeader, Timestamp, PicoSeconds, DataSetClassId, PromotedFields
 * @param dataSetMessageContentMask Timestamp, PicoSeconds, Status, MajorVersion, MinorVersion, SequenceNumber
 * @param dataSetFieldContentMask 0 for Variant fields; RawData for RawData fields (other bits then ignored,
 *        6.2.4.2); otherwise DataValue fields with StatusCode, SourceTimestamp, ServerTimestamp,
 *        SourcePicoSeconds, ServerPicoSeconds as set
 */
public record UadpLayout(long networkMessageContentMask, long dataSetMessageContentMask,
        long dataSetFieldContentMask) {

    private static final long NETWORK_BITS = 0x7FFL;
    private static final long DATA_SET_BITS = 0x3FL;
    private static final long FIELD_BITS = 0x3FL;
    private static final long DATA_VALUE_BITS = DataSetFieldContentMask.StatusCode
            | DataSetFieldContentMask.SourceTimestamp | DataSetFieldContentMask.ServerTimestamp
            | DataSetFieldContentMask.SourcePicoSeconds | DataSetFieldContentMask.ServerPicoSeconds;

    /**
     * The layout open62541 (1.4, 1.5) publishes with when a WriterGroup is configured as in its
     * {@code tutorial_pubsub_publish.c} and the DataSetWriter has no UadpDataSetWriterMessageDataType: network
     * mask PublisherId | GroupHeader | WriterGroupId | PayloadHeader (0x47), data set message mask Timestamp |
     * MajorVersion | MinorVersion (0x19, open62541's built-in default for a writer without message settings),
     * field mask 0 (Variant). A header that names publisher, group and writer lets any subscriber filter and
     * decode without metadata, and matches what the most common open-source peer sends and expects.
     */
    public static final UadpLayout DEFAULT = new UadpLayout(
            UadpNetworkMessageContentMask.PublisherId | UadpNetworkMessageContentMask.GroupHeader
                    | UadpNetworkMessageContentMask.WriterGroupId | UadpNetworkMessageContentMask.PayloadHeader,
            UadpDataSetMessageContentMask.Timestamp | UadpDataSetMessageContentMask.MajorVersion
                    | UadpDataSetMessageContentMask.MinorVersion,
            DataSetFieldContentMask.None);

    public UadpLayout {
        check("UadpNetworkMessageContentMask", networkMessageContentMask, NETWORK_BITS);
        check("UadpDataSetMessageContentMask", dataSetMessageContentMask, DATA_SET_BITS);
        check("DataSetFieldContentMask", dataSetFieldContentMask, FIELD_BITS);
    }

    private static void check(String name, long mask, long defined) {
        if ((mask & ~defined) != 0) {
            throw new IllegalArgumentException(String.format("%s 0x%X has bits Part 14 does not define: 0x%X",
                    name, mask, mask & ~defined));
        }
    }

    /** This layout with another network message content mask. */
    public UadpLayout withNetworkMessageContentMask(long mask) {
        return new UadpLayout(mask, dataSetMessageContentMask, dataSetFieldContentMask);
    }

    /** This layout with another data set message content mask. */
    public UadpLayout withDataSetMessageContentMask(long mask) {
        return new UadpLayout(networkMessageContentMask, mask, dataSetFieldContentMask);
    }

    /** This layout with another field content mask. */
    public UadpLayout withDataSetFieldContentMask(long mask) {
        return new UadpLayout(networkMessageContentMask, dataSetMessageContentMask, mask);
    }

    /** Whether the network message content mask has all of {@code bits}. */
    public boolean network(long bits) {
        return (networkMessageContentMask & bits) == bits;
    }

    /** Whether the data set message content mask has all of {@code bits}. */
    public boolean dataSet(long bits) {
        return (dataSetMessageContentMask & bits) == bits;
    }

    /** Whether the field content mask has all of {@code bits}. */
    public boolean field(long bits) {
        return (dataSetFieldContentMask & bits) == bits;
    }

    /**
     * The field encoding the field content mask selects (Part 14, 6.2.4.2): RawData when its bit is set,
     * DataValue when any of the DataValue bits is, Variant otherwise.
     */
    public UadpFieldEncoding fieldEncoding() {
        if ((dataSetFieldContentMask & DataSetFieldContentMask.RawData) != 0) {
            return UadpFieldEncoding.RAW_DATA;
        }
        return (dataSetFieldContentMask & DATA_VALUE_BITS) != 0 ? UadpFieldEncoding.DATA_VALUE
                : UadpFieldEncoding.VARIANT;
    }
}
