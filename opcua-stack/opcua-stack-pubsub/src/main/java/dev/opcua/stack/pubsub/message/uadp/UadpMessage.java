package dev.opcua.stack.pubsub.message.uadp;

import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.pubsub.message.MetaDataMessage;
import dev.opcua.stack.pubsub.message.NetworkMessage;
import java.util.Objects;

/**
 * What one UADP network message carries, as {@link UadpMessageDecoder#decode} found it: data set messages
 * (ExtendedFlags2 network message type 000, Part 14, 7.2.4.4.2) or the DataSetMetaData discovery announcement
 * (type 010, AnnouncementType 2, 7.2.4.6.4).
 */
public sealed interface UadpMessage {

    /** A network message with a DataSetMessage payload (7.2.4.5). */
    record Data(NetworkMessage message) implements UadpMessage {
        public Data {
            Objects.requireNonNull(message, "message");
        }
    }

    /**
     * A DataSetMetaData announcement (7.2.4.6.3, 7.2.4.6.4, Tables 168 and 170).
     *
     * @param message the publisher, writer and metadata
     * @param sequenceNumber the announcement's SequenceNumber (UInt16), counted per publisher
     * @param statusCode whether the publisher could provide the metadata; Good normally
     */
    record MetaData(MetaDataMessage message, int sequenceNumber, StatusCode statusCode) implements UadpMessage {
        public MetaData {
            Objects.requireNonNull(message, "message");
            Objects.requireNonNull(statusCode, "statusCode");
            if (sequenceNumber < 0 || sequenceNumber > 0xFFFF) {
                throw new IllegalArgumentException("SequenceNumber is 0..65535, was " + sequenceNumber);
            }
        }
    }
}
