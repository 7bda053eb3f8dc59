package dev.opcua.stack.pubsub.config;

import dev.opcua.stack.core.types.enumerated.DataSetFieldContentMask;

/**
 * A DataSetWriter (Part 14, 6.2.4): sends one published data set as DataSetMessages within its writer group.
 *
 * @param name the writer's name (JSON DataSetWriterName and the MQTT topic's last level)
 * @param id the DataSetWriterId, 1..65535, unique within the publisher
 * @param dataSet the name of the published data set it sends
 * @param keyFrameCount every how many messages a key frame is sent (Part 14, 6.2.4.3); 1 sends only key frames,
 *        more sends delta frames with the changed fields in between
 * @param fieldContentMask what each field carries (Part 14, 6.2.4.2, {@link DataSetFieldContentMask}): 0 the value
 *        as a Variant, RawData the bare value, other bits a DataValue with status and timestamps
 */
public record DataSetWriterConfig(String name, int id, String dataSet, int keyFrameCount, long fieldContentMask) {

    public DataSetWriterConfig {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a DataSetWriter needs a name");
        }
        if (id < 1 || id > 0xFFFF) {
            throw new IllegalArgumentException("DataSetWriter " + name + ": id is 1..65535, was " + id);
        }
        if (dataSet == null || dataSet.isBlank()) {
            throw new IllegalArgumentException("DataSetWriter " + name + " names no published data set");
        }
        if (keyFrameCount < 1) {
            throw new IllegalArgumentException("DataSetWriter " + name + ": keyFrameCount is at least 1, was "
                    + keyFrameCount);
        }
        if ((fieldContentMask & ~0x3FL) != 0) {
            throw new IllegalArgumentException("DataSetWriter " + name + ": unknown DataSetFieldContentMask bits in 0x"
                    + Long.toHexString(fieldContentMask));
        }
        if ((fieldContentMask & DataSetFieldContentMask.RawData) != 0 && fieldContentMask != DataSetFieldContentMask.RawData) {
            throw new IllegalArgumentException("DataSetWriter " + name
                    + ": RawData cannot be combined with the DataValue bits of the DataSetFieldContentMask");
        }
    }

    /** A writer of key frames only, each field a Variant. */
    public static DataSetWriterConfig of(String name, int id, String dataSet) {
        return new DataSetWriterConfig(name, id, dataSet, 1, DataSetFieldContentMask.None);
    }
}
