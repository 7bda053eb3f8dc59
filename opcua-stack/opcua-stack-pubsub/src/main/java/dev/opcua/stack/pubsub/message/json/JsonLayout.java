package dev.opcua.stack.pubsub.message.json;

import dev.opcua.stack.core.types.enumerated.JsonDataSetMessageContentMask;
import dev.opcua.stack.core.types.enumerated.JsonNetworkMessageContentMask;

/**
 * What a JSON writer group puts in its messages (Part 14, 6.3.2.1.1 JsonNetworkMessageContentMask and 6.3.2.3.1
 * JsonDataSetMessageContentMask).
 *
 * @param networkMessageContentMask {@link JsonNetworkMessageContentMask} bits
 * @param dataSetMessageContentMask {@link JsonDataSetMessageContentMask} bits; FieldEncoding1 (bit 7) asks for the
 *        compact field encoding instead of the verbose one (Part 14, 7.2.5.4.1)
 * @param variantFields every field as a Variant object {@code {"UaType":n,"Value":..}} even where its metadata
 *        names a concrete type: the reversible form that OPC UA subscribers without the metadata need (open62541
 *        1.5 decodes only this form)
 */
public record JsonLayout(long networkMessageContentMask, long dataSetMessageContentMask, boolean variantFields) {

    public JsonLayout(long networkMessageContentMask, long dataSetMessageContentMask) {
        this(networkMessageContentMask, dataSetMessageContentMask, false);
    }

    /** This layout with every field written as a Variant object. */
    public JsonLayout withVariantFields() {
        return new JsonLayout(networkMessageContentMask, dataSetMessageContentMask, true);
    }

    /**
     * The default: a network message header with the PublisherId and WriterGroupName, and data set messages with
     * their writer's id and name, sequence number, metadata version, timestamp, status and message type; fields in
     * the verbose encoding, the recommended form for consumers without OPC UA knowledge (Part 14, 7.2.5.4.2).
     */
    public static final JsonLayout DEFAULT = new JsonLayout(
            JsonNetworkMessageContentMask.NetworkMessageHeader | JsonNetworkMessageContentMask.DataSetMessageHeader
                    | JsonNetworkMessageContentMask.PublisherId | JsonNetworkMessageContentMask.WriterGroupName,
            JsonDataSetMessageContentMask.DataSetWriterId | JsonDataSetMessageContentMask.DataSetWriterName
                    | JsonDataSetMessageContentMask.SequenceNumber | JsonDataSetMessageContentMask.MetaDataVersion
                    | JsonDataSetMessageContentMask.Timestamp | JsonDataSetMessageContentMask.Status
                    | JsonDataSetMessageContentMask.MessageType);

    public JsonLayout {
        if ((dataSetMessageContentMask & JsonDataSetMessageContentMask.PublisherId) != 0
                && (networkMessageContentMask & JsonNetworkMessageContentMask.NetworkMessageHeader) != 0) {
            throw new IllegalArgumentException("the PublisherId bit of the JsonDataSetMessageContentMask is false when"
                    + " the NetworkMessageHeader is on (Part 14, 6.3.2.3.1)");
        }
    }

    boolean network(long bit) {
        return (networkMessageContentMask & bit) != 0;
    }

    boolean dataSet(long bit) {
        return (dataSetMessageContentMask & bit) != 0;
    }
}
