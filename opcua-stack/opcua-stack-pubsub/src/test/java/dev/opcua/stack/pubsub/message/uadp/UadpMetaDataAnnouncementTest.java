package dev.opcua.stack.pubsub.message.uadp;

import dev.opcua.stack.pubsub.message.MetaDataLookup;
import static dev.opcua.stack.pubsub.message.uadp.UadpFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.DataSetFieldContentMask;
import dev.opcua.stack.pubsub.message.MetaDataMessage;
import dev.opcua.stack.pubsub.message.PublisherId;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The DataSetMetaData discovery announcement (Part 14, 7.2.4.6.3, 7.2.4.6.4). */
class UadpMetaDataAnnouncementTest {

    private static final UadpMessageEncoder ENCODER = new UadpMessageEncoder(UadpLayout.DEFAULT);
    private static final UadpMessageDecoder DECODER = new UadpMessageDecoder(MetaDataLookup.NONE);

    @Test
    void announcementRoundTripsWithItsHeaderFixedBy7_2_4_6_3() {
        MetaDataMessage message = new MetaDataMessage(PublisherId.ofUInt16(2234), 62541,
                metaData(field("temperature", BuiltinType.Double), field("name", BuiltinType.String, 16)));

        byte[] bytes = ENCODER.encodeMetaData(message, 0x1234);

        assertThat(hex(Arrays.copyOf(bytes, 16))).isEqualTo(hex(bytes("""
                91           // UADPVersion 1 | PublisherId 0x10 | ExtendedFlags1 0x80; bits 5, 6 false (7.2.4.6.3)
                91           // ExtendedFlags1: PublisherId Type UInt16, Security 0x10, ExtendedFlags2 0x80
                08           // ExtendedFlags2: network message type 010 discovery announcement
                BA 08        // PublisherId 2234
                00           // SecurityHeader.SecurityFlags: neither signed nor encrypted
                00 00 00 00  // SecurityHeader.SecurityTokenId 0
                00           // SecurityHeader.NonceLength 0
                02           // Table 168 AnnouncementType 2: DataSetMetaData
                34 12        // Table 168 SequenceNumber
                4D F4        // Table 170 DataSetWriterId 62541
                """)));
        UadpMessage decoded = DECODER.decode(bytes);
        assertThat(decoded).isEqualTo(new UadpMessage.MetaData(message, 0x1234, StatusCode.GOOD));
    }

    @Test
    void aDataDecoderCallSaysWhenItGetsAnAnnouncement() {
        byte[] bytes = ENCODER.encodeMetaData(new MetaDataMessage(PublisherId.ofString("p"), 1, metaData()), 1);
        assertThatThrownBy(() -> DECODER.decodeNetworkMessage(bytes)).isInstanceOf(UaEncodingException.class)
                .hasMessageContaining("discovery announcement");
    }

    @Test
    void decodedMetadataServesRawDataDecoding() {
        MetaDataMessage announced = new MetaDataMessage(PublisherId.ofByte(4), 9,
                metaData(field("count", BuiltinType.UInt32)));
        UadpMessage.MetaData metaData = (UadpMessage.MetaData) DECODER.decode(ENCODER.encodeMetaData(announced, 7));
        MetaDataLookup learned = (p, g, w) -> p.equals(metaData.message().publisherId())
                && w == metaData.message().dataSetWriterId() ? metaData.message().metaData() : null;
        UadpLayout raw = UadpLayout.DEFAULT.withDataSetFieldContentMask(
                DataSetFieldContentMask.RawData);
        var message = network(PublisherId.ofByte(4), keyFrame(9, fields(announced.metaData(),
                Variant.ofUInt32(123))));

        byte[] bytes = new UadpMessageEncoder(CodecRegistry.standard(), raw, learned,
                () -> TIME).encode(message);

        assertThat(new UadpMessageDecoder(learned).decodeNetworkMessage(bytes)).isEqualTo(expected(message, raw));
    }
}
