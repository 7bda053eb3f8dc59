package dev.opcua.stack.pubsub.message.uadp;

import dev.opcua.stack.pubsub.message.MetaDataLookup;
import static dev.opcua.stack.pubsub.message.uadp.UadpFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.DataSetFieldContentMask;
import dev.opcua.stack.core.types.enumerated.UadpNetworkMessageContentMask;
import dev.opcua.stack.core.types.structured.DataSetMetaDataType;
import dev.opcua.stack.pubsub.message.DataSetField;
import dev.opcua.stack.pubsub.message.DataSetMessage;
import dev.opcua.stack.pubsub.message.DataSetMessageType;
import dev.opcua.stack.pubsub.message.MetaDataMessage;
import dev.opcua.stack.pubsub.message.NetworkMessage;
import dev.opcua.stack.pubsub.message.PublisherId;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Malformed and unsupported input: always a UaEncodingException with the right status, naming the part. */
class UadpMalformedInputTest {

    private static final UadpMessageDecoder DECODER = new UadpMessageDecoder(MetaDataLookup.NONE);

    /** Two writers, so that the Sizes array pins every message's length. */
    private static byte[] twoMessages() {
        NetworkMessage message = network(PublisherId.ofString("pub"),
                keyFrame(1, fields(null, Variant.ofInt32(1), Variant.ofString("two"))),
                new DataSetMessage(2, DataSetMessageType.DELTA_FRAME, 3, VERSION, TIME, null,
                        List.of(new DataSetField(4, null, DataValue.of(Variant.ofDouble(4.5))))));
        return new UadpMessageEncoder(new UadpLayout(0x3FF, 0x3F, 0)).encode(message);
    }

    private static UaEncodingException failure(UadpMessageDecoder decoder, byte[] bytes) {
        UaEncodingException e = catchThrowableOfType(UaEncodingException.class, () -> decoder.decode(bytes));
        assertThat(e).as("decoding %s", hex(bytes)).isNotNull();
        return e;
    }

    private static void assertDecodingError(byte[] bytes, String messagePart) {
        UaEncodingException e = failure(DECODER, bytes);
        assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadDecodingError);
        assertThat(e.getMessage()).contains(messagePart);
    }

    @Test
    void truncatedAtEveryOffsetIsADecodingError() {
        byte[] valid = twoMessages();
        DECODER.decode(valid);
        for (int length = 0; length < valid.length; length++) {
            UaEncodingException e = failure(DECODER, Arrays.copyOf(valid, length));
            assertThat(e.statusCode().value()).as("truncated to %d", length).isEqualTo(StatusCodes.BadDecodingError);
        }
    }

    @Test
    void truncatedAnnouncementAtEveryOffsetIsADecodingError() {
        byte[] valid = new UadpMessageEncoder(UadpLayout.DEFAULT).encodeMetaData(new MetaDataMessage(
                PublisherId.ofUInt64(1), 5, metaData(field("a", BuiltinType.String, 8))), 1);
        DECODER.decode(valid);
        for (int length = 0; length < valid.length; length++) {
            UaEncodingException e = failure(DECODER, Arrays.copyOf(valid, length));
            assertThat(e.statusCode().value()).as("truncated to %d", length).isEqualTo(StatusCodes.BadDecodingError);
        }
    }

    @Test
    void unsupportedVersionIsRefused() {
        byte[] bytes = twoMessages();
        bytes[0] = (byte) ((bytes[0] & 0xF0) | 2);
        assertDecodingError(bytes, "UADPVersion: 2 is not supported");
        assertDecodingError(new byte[] {0x00}, "UADPVersion: 0");
    }

    @Test
    void securedDataMessageIsRefused() {
        // UADPVersion 1 | ExtendedFlags1; ExtendedFlags1 Security enabled; then a SecurityHeader we do not read
        assertDecodingError(bytes("81 10 01 00 00 00 00 00"), "secured");
    }

    @Test
    void announcementThatSignsIsRefused() {
        byte[] valid = new UadpMessageEncoder(UadpLayout.DEFAULT).encodeMetaData(new MetaDataMessage(
                PublisherId.ofByte(1), 5, metaData()), 1);
        // 91 (flags) 90 (ExtendedFlags1: Security, ExtendedFlags2) 08 (announcement) 01 (PublisherId), SecurityFlags
        assertThat(hex(Arrays.copyOf(valid, 5))).isEqualTo("91 90 08 01 00");
        valid[4] = 0x01;
        assertDecodingError(valid, "SecurityHeader.SecurityFlags: 0x01");
    }

    @Test
    void countThatDisagreesWithTheMessagesIsADecodingError() {
        // Count 3 with three writer ids and sizes, but bytes for two messages only
        assertDecodingError(bytes("41 03 01 00 02 00 03 00 02 00 02 00 02 00 01 00 01 00"), "Sizes");
        // Count 0
        assertDecodingError(bytes("41 00"), "PayloadHeader.Count: 0");
    }

    @Test
    void sizesThatLieAreDecodingErrors() {
        // Sizes say 3 and 2 bytes; the first message (flags, FieldCount 1, Variant Boolean true) needs 5
        assertDecodingError(bytes("41 02 01 00 02 00 03 00 02 00 01 01 00 01 01"),
                "DataSetMessage[0](writer 1).FieldCount: 1 fields need at least 1 bytes but only 0 remain");
        // Sizes add up to more than there is
        assertDecodingError(bytes("41 02 01 00 02 00 FF FF 01 00 01 01"), "add up to 65536 bytes");
    }

    @Test
    void absurdLengthsHitTheLimitsOrTheEnd() {
        UadpMessageDecoder strict = new UadpMessageDecoder(CodecRegistry.standard(),
                new EncodingLimits(16, 16, 16, 8), MetaDataLookup.NONE);
        // FieldCount 65535
        byte[] fieldCount = bytes("01 01 FF FF 01 01");
        UaEncodingException e = failure(strict, fieldCount);
        assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadEncodingLimitsExceeded);
        assertThat(e.getMessage()).contains("FieldCount", "MaxArrayLength");
        assertDecodingError(fieldCount, "65535 fields need at least 65535 bytes");
        // a Variant String field of length 0x7FFFFFFF
        e = failure(strict, bytes("01 01 01 00 0C FF FF FF 7F"));
        assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadEncodingLimitsExceeded);
        // a Variant Int32 array of 0x10000000 elements
        e = failure(strict, bytes("01 01 01 00 86 00 00 00 10"));
        assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadEncodingLimitsExceeded);
        // 1000 elements are within the default limits, but the bytes are not there
        assertDecodingError(bytes("01 01 01 00 86 E8 03 00 00"), "DataSetMessage[0](writer 0).Fields[0]");
        // a String PublisherId of 2 GB
        e = failure(strict, bytes("91 04 FF FF FF 7F"));
        assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadEncodingLimitsExceeded);
        assertThat(e.getMessage()).contains("PublisherId");
    }

    @Test
    void unsupportedHeaderBitsAreRefusedNotSkipped() {
        assertDecodingError(bytes("81 80 01"), "chunked");
        assertDecodingError(bytes("81 80 02"), "PromotedFields");
        assertDecodingError(bytes("81 80 04"), "discovery probes");
        assertDecodingError(bytes("81 80 0C"), "network message type 3");
        assertDecodingError(bytes("91 05 00"), "PublisherId Type 5 is reserved");
        assertDecodingError(bytes("91 04 00 00 00 00"), "cannot be empty");
        assertDecodingError(bytes("01 07"), "field encoding 11 is reserved");
        assertDecodingError(bytes("01 81 04"), "DataSetMessage type 4 is reserved");
    }

    @Test
    void rawDataWithoutMetadataNamesTheWriter() {
        // PublisherId Byte 9, PayloadHeader writer 12, RawData key frame
        assertDecodingError(bytes("51 09 01 0C 00 03 01 02"), "DataSetWriter 12 (publisher 9, WriterGroup 0)");
    }

    @Test
    void deltaFrameIndexesAreChecked() {
        // delta frame: FieldCount 2, index 1 twice
        assertDecodingError(bytes("01 81 01 02 00 01 00 01 01 01 00 01 00"), "appears twice");
        DataSetMetaDataType meta = metaData(field("a", BuiltinType.Boolean));
        UadpMessageDecoder withMeta = new UadpMessageDecoder((p, g, w) -> meta);
        // index 1 with a one-field metadata
        UaEncodingException e = failure(withMeta, bytes("01 81 01 01 00 01 00 01 01"));
        assertThat(e.getMessage()).contains("FieldIndex: 1 is beyond the 1 fields");
    }

    @Test
    void rawDataStringLongerThanItsMaximumIsADecodingError() {
        DataSetMetaDataType meta = metaData(field("s", BuiltinType.String, 2));
        UadpMessageDecoder withMeta = new UadpMessageDecoder((p, g, w) -> meta);
        UaEncodingException e = failure(withMeta, bytes("01 03 03 00 00 00 61 62 63"));
        assertThat(e.getMessage()).contains("3 bytes exceed the metadata's MaxStringLength 2");
    }

    @Test
    void invalidDataSetMessagesAreLeftOut() {
        // two messages; the first has DataSetFlags1 bit 0 (valid) false and is skipped by its size
        NetworkMessage decoded = DECODER.decodeNetworkMessage(bytes("41 02 01 00 02 00 02 00 04 00 00 FF 01 01 00 00"));
        assertThat(decoded.messages()).extracting(DataSetMessage::dataSetWriterId).containsExactly(2);
    }

    @Test
    void encoderRefusesWhatItCannotWrite() {
        assertThatThrownBy(() -> new UadpMessageEncoder(UadpLayout.DEFAULT.withNetworkMessageContentMask(
                UadpNetworkMessageContentMask.PromotedFields)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PromotedFields");
        assertThatThrownBy(() -> new UadpLayout(0x800, 0, 0)).isInstanceOf(IllegalArgumentException.class);

        NetworkMessage two = network(PublisherId.ofByte(1), keyFrame(1, List.of()), keyFrame(2, List.of()));
        assertEncodingError(new UadpMessageEncoder(new UadpLayout(0, 0, 0)), two, "need the PayloadHeader");
        assertEncodingError(new UadpMessageEncoder(UadpLayout.DEFAULT),
                network(null, keyFrame(1, List.of())), "PublisherId");
        assertEncodingError(new UadpMessageEncoder(UadpLayout.DEFAULT.withDataSetFieldContentMask(
                DataSetFieldContentMask.RawData)), network(PublisherId.ofByte(1),
                keyFrame(4, fields(null, Variant.ofInt32(1)))), "metadata of DataSetWriter 4");
        assertEncodingError(new UadpMessageEncoder(UadpLayout.DEFAULT), network(PublisherId.ofByte(1),
                keyFrame(1, List.of(new DataSetField(3, null, DataValue.of(Variant.ofInt32(1)))))), "index 3");

        DataSetMetaDataType meta = metaData(field("s", BuiltinType.String, 2), field("a", BuiltinType.NodeId));
        UadpMessageEncoder raw = new UadpMessageEncoder(CodecRegistry.standard(),
                UadpLayout.DEFAULT.withDataSetFieldContentMask(DataSetFieldContentMask.RawData), (p, g, w) -> meta,
                () -> TIME);
        assertEncodingError(raw, network(PublisherId.ofByte(1), keyFrame(1, fields(null, Variant.ofString("abc"),
                Variant.ofInt32(1)))), "exceed the metadata's MaxStringLength 2");
        assertEncodingError(raw, network(PublisherId.ofByte(1), keyFrame(1, fields(null, Variant.ofInt32(7),
                Variant.ofInt32(1)))), "needs a scalar String");
        assertEncodingError(raw, network(PublisherId.ofByte(1), keyFrame(1, fields(null, Variant.ofString("ok"),
                Variant.ofInt32(1)))), "built-in type NodeId");
    }

    private static void assertEncodingError(UadpMessageEncoder encoder, NetworkMessage message, String part) {
        io.netty.buffer.ByteBuf buf = io.netty.buffer.Unpooled.buffer();
        buf.writeByte(7);
        UaEncodingException e = catchThrowableOfType(UaEncodingException.class, () -> encoder.encode(message, buf));
        assertThat(e).isNotNull();
        assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadEncodingError);
        assertThat(e.getMessage()).contains(part);
        assertThat(buf.writerIndex()).as("the buffer is left as it was").isEqualTo(1);
        buf.release();
    }
}
