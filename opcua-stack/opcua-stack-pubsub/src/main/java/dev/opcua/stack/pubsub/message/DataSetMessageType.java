package dev.opcua.stack.pubsub.message;

/** What a DataSetMessage carries (Part 14, 7.2.3). */
public enum DataSetMessageType {
    /** Every field of the data set. */
    KEY_FRAME,
    /** Only the fields that changed since the last message, by index. */
    DELTA_FRAME,
    /** The fields of one event. */
    EVENT,
    /** No fields: tells readers the writer is alive between key frames. */
    KEEP_ALIVE
}
