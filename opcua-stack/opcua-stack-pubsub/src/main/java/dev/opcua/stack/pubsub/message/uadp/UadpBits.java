package dev.opcua.stack.pubsub.message.uadp;

/**
 * The bits of the flag bytes in UADP headers, as the tables of Part 14 number them (bit 0 the least
 * significant). Kept apart from the content masks of {@link UadpLayout}: the masks are configuration, these
 * are the wire, and the two number their bits differently.
 */
final class UadpBits {

    /** UADPVersion, bits 0-3 of the first byte (Table 154): 1 for Part 14 1.04 and 1.05. */
    static final int VERSION = 1;
    static final int VERSION_MASK = 0x0F;

    // UADPFlags, bits 4-7 of the first byte (Table 154)
    static final int PUBLISHER_ID = 0x10;
    static final int GROUP_HEADER = 0x20;
    static final int PAYLOAD_HEADER = 0x40;
    static final int EXTENDED_FLAGS1 = 0x80;

    // ExtendedFlags1 (Table 154)
    static final int PUBLISHER_ID_TYPE_MASK = 0x07;
    static final int DATA_SET_CLASS_ID = 0x08;
    static final int SECURITY = 0x10;
    static final int TIMESTAMP = 0x20;
    static final int PICOSECONDS = 0x40;
    static final int EXTENDED_FLAGS2 = 0x80;

    // ExtendedFlags2 (Table 154)
    static final int CHUNK = 0x01;
    static final int PROMOTED_FIELDS = 0x02;
    static final int MESSAGE_TYPE_SHIFT = 2;
    static final int MESSAGE_TYPE_MASK = 0x1C;
    static final int EXTENDED_FLAGS2_RESERVED = 0xE0;
    static final int TYPE_DATA_SET_MESSAGE = 0;
    static final int TYPE_DISCOVERY_PROBE = 1;
    static final int TYPE_DISCOVERY_ANNOUNCEMENT = 2;

    // GroupFlags of the GroupHeader (Table 154)
    static final int GROUP_WRITER_GROUP_ID = 0x01;
    static final int GROUP_VERSION = 0x02;
    static final int GROUP_NETWORK_MESSAGE_NUMBER = 0x04;
    static final int GROUP_SEQUENCE_NUMBER = 0x08;

    // SecurityFlags of the SecurityHeader (7.2.4.4.3)
    static final int SECURITY_SIGNED = 0x01;
    static final int SECURITY_ENCRYPTED = 0x02;
    static final int SECURITY_FOOTER = 0x04;

    // DataSetFlags1 (Table 162)
    static final int DS_VALID = 0x01;
    static final int DS_FIELD_ENCODING_SHIFT = 1;
    static final int DS_FIELD_ENCODING_MASK = 0x06;
    static final int DS_SEQUENCE_NUMBER = 0x08;
    static final int DS_STATUS = 0x10;
    static final int DS_MAJOR_VERSION = 0x20;
    static final int DS_MINOR_VERSION = 0x40;
    static final int DS_FLAGS2 = 0x80;

    // DataSetFlags2 (Table 162)
    static final int DS2_TYPE_MASK = 0x0F;
    static final int DS2_TIMESTAMP = 0x10;
    static final int DS2_PICOSECONDS = 0x20;
    static final int DS2_TYPE_KEY_FRAME = 0;
    static final int DS2_TYPE_DELTA_FRAME = 1;
    static final int DS2_TYPE_EVENT = 2;
    static final int DS2_TYPE_KEEP_ALIVE = 3;

    /** AnnouncementType of a DataSetMetaData announcement (Table 168). */
    static final int ANNOUNCEMENT_DATA_SET_META_DATA = 2;

    private UadpBits() {
    }
}
