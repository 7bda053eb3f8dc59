package dev.opcua.stack.pubsub.message.uadp;

import dev.opcua.stack.pubsub.message.MetaDataLookup;
import static dev.opcua.stack.pubsub.message.uadp.UadpFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.DataSetFieldContentMask;
import dev.opcua.stack.core.types.enumerated.UadpDataSetMessageContentMask;
import dev.opcua.stack.core.types.enumerated.UadpNetworkMessageContentMask;
import dev.opcua.stack.core.types.structured.DataSetMetaDataType;
import dev.opcua.stack.pubsub.message.DataSetField;
import dev.opcua.stack.pubsub.message.DataSetMessage;
import dev.opcua.stack.pubsub.message.DataSetMessageType;
import dev.opcua.stack.pubsub.message.NetworkMessage;
import dev.opcua.stack.pubsub.message.PublisherId;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Encode then decode, over the header variants, field encodings, message types and PublisherId types. */
class UadpRoundTripTest {

    private static final UadpMessageDecoder DECODER = new UadpMessageDecoder(MetaDataLookup.NONE);

    /** Every subset of the network header bits (PromotedFields excluded) with every data set header subset. */
    static Stream<UadpLayout> layouts() {
        List<UadpLayout> layouts = new ArrayList<>();
        for (long network = 0; network < 0x400; network++) {
            // every network subset with a rich data set header, and the data set subsets with a rich network one
            layouts.add(new UadpLayout(network, 0x3F, 0));
        }
        for (long dataSet = 0; dataSet < 0x40; dataSet++) {
            layouts.add(new UadpLayout(0x3FF, dataSet, 0));
            layouts.add(new UadpLayout(0x47, dataSet, 0));
        }
        return layouts.stream();
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void everyHeaderCombinationRoundTrips(UadpLayout layout) {
        NetworkMessage message = network(PublisherId.ofUInt32(0xFFFF_FFF0L),
                keyFrame(7, fields(null, Variant.ofInt32(-5), Variant.ofString("x"))));
        UadpMessageEncoder encoder = new UadpMessageEncoder(CodecRegistry.standard(), layout,
                MetaDataLookup.NONE, () -> TIME2);

        byte[] bytes = encoder.encode(message);

        assertThat(DECODER.decodeNetworkMessage(bytes)).isEqualTo(expected(message, layout));
    }

    static Stream<PublisherId> publisherIds() {
        return Stream.of(PublisherId.ofByte(0), PublisherId.ofByte(255), PublisherId.ofUInt16(0xFFFF),
                PublisherId.ofUInt32(0xFFFF_FFFFL), PublisherId.ofUInt64(-1L), PublisherId.ofUInt64(1L),
                PublisherId.ofString("publisher-ä"));
    }

    @ParameterizedTest
    @MethodSource("publisherIds")
    void everyPublisherIdTypeRoundTrips(PublisherId id) {
        NetworkMessage message = network(id, keyFrame(1, fields(null, Variant.ofDouble(1.5))));
        byte[] bytes = new UadpMessageEncoder(UadpLayout.DEFAULT).encode(message);

        NetworkMessage decoded = DECODER.decodeNetworkMessage(bytes);

        assertThat(decoded.publisherId()).isEqualTo(id);
        assertThat(decoded).isEqualTo(expected(message, UadpLayout.DEFAULT));
    }

    @Test
    void severalDataSetMessagesCarryWriterIdsAndSizes() {
        NetworkMessage message = network(PublisherId.ofUInt16(9),
                keyFrame(1, fields(null, Variant.ofInt32(1))),
                new DataSetMessage(2, DataSetMessageType.KEEP_ALIVE, 3, VERSION, TIME, null, List.of()),
                new DataSetMessage(3, DataSetMessageType.DELTA_FRAME, 4, VERSION, TIME, null,
                        List.of(new DataSetField(5, null, DataValue.of(Variant.ofString("five"))),
                                new DataSetField(2, null, DataValue.of(Variant.ofBoolean(true))))),
                new DataSetMessage(4, DataSetMessageType.EVENT, 5, VERSION, TIME, null,
                        fields(null, Variant.ofString("event"), Variant.ofUInt64(-1L))));
        UadpLayout layout = UadpLayout.DEFAULT.withDataSetMessageContentMask(0x3F);

        NetworkMessage decoded = DECODER.decodeNetworkMessage(new UadpMessageEncoder(layout).encode(message));

        assertThat(decoded).isEqualTo(expected(message, layout));
        assertThat(decoded.messages()).extracting(DataSetMessage::dataSetWriterId).containsExactly(1, 2, 3, 4);
        assertThat(decoded.messages().get(2).fields()).extracting(DataSetField::index).containsExactly(5, 2);
    }

    @Test
    void dataValueFieldsKeepWhatTheFieldMaskSays() {
        DataValue full = DataValue.of(Variant.ofFloat(2.5f), StatusCode.of(0x80340000), TIME, 77, TIME2, 88);
        NetworkMessage message = network(PublisherId.ofByte(1), keyFrame(1, List.of(new DataSetField(0, null, full))));

        UadpLayout all = UadpLayout.DEFAULT.withDataSetFieldContentMask(0x1F);
        UadpLayout statusOnly = UadpLayout.DEFAULT.withDataSetFieldContentMask(DataSetFieldContentMask.StatusCode);
        UadpLayout sourceNoPico = UadpLayout.DEFAULT.withDataSetFieldContentMask(
                DataSetFieldContentMask.SourceTimestamp);

        assertThat(valueOfOnlyField(all, message)).isEqualTo(full);
        assertThat(valueOfOnlyField(statusOnly, message))
                .isEqualTo(DataValue.of(Variant.ofFloat(2.5f), StatusCode.of(0x80340000), null, null));
        assertThat(valueOfOnlyField(sourceNoPico, message))
                .isEqualTo(DataValue.of(Variant.ofFloat(2.5f), StatusCode.GOOD, TIME, null));
    }

    @Test
    void variantFieldsCarryBadAsStatusCodeAndUncertainAsDataValue() {
        DataValue bad = DataValue.ofStatus(StatusCode.of(0x80330000));
        DataValue uncertain = DataValue.of(Variant.ofInt16((short) 3), StatusCode.UNCERTAIN, null, null);
        NetworkMessage message = network(PublisherId.ofByte(1), keyFrame(1, List.of(
                new DataSetField(0, null, bad), new DataSetField(1, null, uncertain))));

        List<DataSetField> decoded = DECODER.decodeNetworkMessage(new UadpMessageEncoder(UadpLayout.DEFAULT)
                .encode(message)).messages().get(0).fields();

        assertThat(decoded).extracting(DataSetField::value).containsExactly(bad, uncertain);
    }

    @Test
    void rawDataFieldsRoundTripWithTheirMetadata() {
        DataSetMetaDataType meta = metaData(field("b", BuiltinType.Boolean), field("sb", BuiltinType.SByte),
                field("by", BuiltinType.Byte), field("i16", BuiltinType.Int16), field("u16", BuiltinType.UInt16),
                field("i32", BuiltinType.Int32), field("u32", BuiltinType.UInt32), field("i64", BuiltinType.Int64),
                field("u64", BuiltinType.UInt64), field("f", BuiltinType.Float), field("d", BuiltinType.Double),
                field("t", BuiltinType.DateTime), field("g", BuiltinType.Guid), field("sc", BuiltinType.StatusCode),
                field("s", BuiltinType.String, 10), field("bs", BuiltinType.ByteString, 4),
                field("unbounded", BuiltinType.String), field("nullString", BuiltinType.String, 3));
        List<DataSetField> fields = fields(meta, Variant.ofBoolean(true), Variant.ofSByte((byte) -3),
                Variant.ofByte(200), Variant.ofInt16((short) -300), Variant.ofUInt16(65000), Variant.ofInt32(-70000),
                Variant.ofUInt32(4_000_000_000L), Variant.ofInt64(-1L << 40), Variant.ofUInt64(-2L),
                Variant.ofFloat(1.25f), Variant.ofDouble(-2.5e300), Variant.ofScalar(BuiltinType.DateTime, TIME),
                Variant.ofScalar(BuiltinType.Guid, UUID.randomUUID()),
                Variant.ofScalar(BuiltinType.StatusCode, StatusCode.BAD), Variant.ofString("häl"),
                Variant.ofScalar(BuiltinType.ByteString, ByteString.of(new byte[] {1, 2})),
                Variant.ofString("no max length"), Variant.NULL);
        MetaDataLookup lookup = (p, g, w) -> w == 3 ? meta : null;
        UadpLayout layout = UadpLayout.DEFAULT.withDataSetFieldContentMask(DataSetFieldContentMask.RawData);
        NetworkMessage message = network(PublisherId.ofUInt16(5), keyFrame(3, fields),
                new DataSetMessage(3, DataSetMessageType.DELTA_FRAME, 1, VERSION, TIME, null,
                        List.of(fields.get(14), fields.get(4))));

        byte[] bytes = new UadpMessageEncoder(CodecRegistry.standard(), layout, lookup, () -> TIME).encode(message);
        NetworkMessage decoded = new UadpMessageDecoder(CodecRegistry.standard(), EncodingLimits.DEFAULT, lookup)
                .decodeNetworkMessage(bytes);

        assertThat(decoded).isEqualTo(expected(message, layout));
        assertThat(decoded.messages().get(0).fields()).extracting(DataSetField::name).startsWith("b", "sb", "by");
    }

    @Test
    void namesComeFromMetadataWhenKnown() {
        DataSetMetaDataType meta = metaData(field("temperature", BuiltinType.Double), field("ok", BuiltinType.Boolean));
        NetworkMessage message = network(PublisherId.ofUInt16(5), keyFrame(3,
                fields(null, Variant.ofDouble(21.5), Variant.ofBoolean(true))));
        byte[] bytes = new UadpMessageEncoder(UadpLayout.DEFAULT).encode(message);

        NetworkMessage decoded = new UadpMessageDecoder((p, g, w) -> p.equals(PublisherId.ofUInt16(5)) && g == 100
                && w == 3 ? meta : null).decodeNetworkMessage(bytes);

        assertThat(decoded.messages().get(0).fields()).extracting(DataSetField::name)
                .containsExactly("temperature", "ok");
    }

    @Test
    void heartbeatKeyFrameWithoutFieldsRoundTrips() {
        NetworkMessage message = network(PublisherId.ofByte(3), keyFrame(1, List.of()));
        UadpLayout layout = UadpLayout.DEFAULT.withDataSetMessageContentMask(UadpDataSetMessageContentMask.None)
                .withNetworkMessageContentMask(UadpNetworkMessageContentMask.None);

        byte[] bytes = new UadpMessageEncoder(layout).encode(message);

        // UADPVersion 1 with no flags, DataSetFlags1 valid, FieldCount 0
        assertThat(hex(bytes)).isEqualTo("01 01 00 00");
        assertThat(DECODER.decodeNetworkMessage(bytes)).isEqualTo(expected(message, layout));
        // and the header-only heartbeat form of 7.2.4.5.5 decodes to the same key frame
        assertThat(DECODER.decodeNetworkMessage(bytes("01 01"))).isEqualTo(expected(message, layout));
    }

    @Test
    void encodesIntoTheCallersBufferAfterWhatIsThere() {
        ByteBuf buf = Unpooled.buffer();
        buf.writeByte(0x55);
        NetworkMessage message = network(PublisherId.ofByte(3), keyFrame(1, fields(null, Variant.ofByte(9))));

        new UadpMessageEncoder(UadpLayout.DEFAULT).encode(message, buf);

        assertThat(buf.readByte()).isEqualTo((byte) 0x55);
        assertThat(DECODER.decodeNetworkMessage(buf)).isEqualTo(expected(message, UadpLayout.DEFAULT));
        assertThat(buf.isReadable()).isFalse();
        buf.release();
    }

    private static DataValue valueOfOnlyField(UadpLayout layout, NetworkMessage message) {
        return DECODER.decodeNetworkMessage(new UadpMessageEncoder(layout).encode(message))
                .messages().get(0).fields().get(0).value();
    }
}
