package dev.opcua.stack.pubsub.message.json;

import dev.opcua.stack.pubsub.message.DataSetMessageType;

/** The MessageType strings of the JSON mapping (Part 14, 7.2.5.3, 7.2.5.4.1, 7.2.5.5). */
final class JsonMessageTypes {

    static final String DATA = "ua-data";
    static final String METADATA = "ua-metadata";
    static final String STATUS = "ua-status";

    private JsonMessageTypes() {
    }

    static String of(DataSetMessageType type) {
        return switch (type) {
            case KEY_FRAME -> "ua-keyframe";
            case DELTA_FRAME -> "ua-deltaframe";
            case EVENT -> "ua-event";
            case KEEP_ALIVE -> "ua-keepalive";
        };
    }

    /** The type of a DataSetMessage's MessageType, or null for an unknown one. */
    static DataSetMessageType dataSetType(String text) {
        return switch (text) {
            case "ua-keyframe" -> DataSetMessageType.KEY_FRAME;
            case "ua-deltaframe" -> DataSetMessageType.DELTA_FRAME;
            case "ua-event" -> DataSetMessageType.EVENT;
            case "ua-keepalive" -> DataSetMessageType.KEEP_ALIVE;
            default -> null;
        };
    }
}
