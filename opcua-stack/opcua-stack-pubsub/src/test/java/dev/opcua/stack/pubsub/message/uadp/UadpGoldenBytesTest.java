package dev.opcua.stack.pubsub.message.uadp;

import dev.opcua.stack.pubsub.message.MetaDataLookup;
import static dev.opcua.stack.pubsub.message.uadp.UadpFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.DataSetFieldContentMask;
import dev.opcua.stack.core.types.enumerated.UadpDataSetMessageContentMask;
import dev.opcua.stack.core.types.enumerated.UadpNetworkMessageContentMask;
import dev.opcua.stack.core.types.structured.ConfigurationVersionDataType;
import dev.opcua.stack.core.types.structured.DataSetMetaDataType;
import dev.opcua.stack.pubsub.message.DataSetField;
import dev.opcua.stack.pubsub.message.DataSetMessage;
import dev.opcua.stack.pubsub.message.DataSetMessageType;
import dev.opcua.stack.pubsub.message.NetworkMessage;
import dev.opcua.stack.pubsub.message.PublisherId;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Messages written out byte by byte from the tables of Part 14 (1.05): Table 154 (network message header,
 * 7.2.4.4.2), Tables 160/161 (payload header and Sizes, 7.2.4.5.2-3), Table 162 (DataSetMessage header,
 * 7.2.4.5.4), Tables 163/164 (key and delta frame bodies), 7.2.4.5.11 (RawData). Our encoder must produce
 * exactly these bytes and our decoder must read them back.
 */
class UadpGoldenBytesTest {

    /** The default layout (open62541's), one key frame with one Int32 Variant field. */
    @Test
    void defaultLayoutKeyFrameWithVariantField() {
        byte[] golden = bytes("""
                F1           // Table 154 UADPVersion 1 | UADPFlags: PublisherId 0x10, GroupHeader 0x20,
                             //   PayloadHeader 0x40, ExtendedFlags1 0x80
                01           // Table 154 ExtendedFlags1: PublisherId Type 001 = UInt16
                BA 08        // Table 154 PublisherId UInt16 2234
                01           // Table 154 GroupHeader.GroupFlags: WriterGroupId enabled
                64 00        // Table 154 GroupHeader.WriterGroupId 100
                01           // Table 160 PayloadHeader.Count 1
                4D F4        // Table 160 PayloadHeader.DataSetWriterIds[0] 62541
                             // Table 161 Sizes: left out, Count is 1
                E1           // Table 162 DataSetFlags1: valid 0x01, field encoding 00 Variant,
                             //   MajorVersion 0x20, MinorVersion 0x40, DataSetFlags2 0x80
                10           // Table 162 DataSetFlags2: type 0000 key frame, Timestamp 0x10
                00 80 20 9B CB 82 D8 01  // Table 162 Timestamp (DateTime, 100 ns ticks since 1601)
                01 00 00 00  // Table 162 ConfigurationVersionMajorVersion 1
                02 00 00 00  // Table 162 ConfigurationVersionMinorVersion 2
                01 00        // Table 163 FieldCount 1
                06 2A 00 00 00  // Table 163 DataSetFields[0]: Variant Int32 (type 6) 42
                """);
        NetworkMessage message = new NetworkMessage(null, PublisherId.ofUInt16(2234), 100, 0, 0, null,
                List.of(new DataSetMessage(62541, DataSetMessageType.KEY_FRAME, 0,
                        new ConfigurationVersionDataType(1, 2), TIME, null,
                        fields(null, Variant.ofInt32(42)))));

        assertThat(hex(new UadpMessageEncoder(UadpLayout.DEFAULT).encode(message))).isEqualTo(hex(golden));
        assertThat(new UadpMessageDecoder(MetaDataLookup.NONE).decodeNetworkMessage(golden)).isEqualTo(message);
    }

    /** RawData fields, a Byte PublisherId (ExtendedFlags1 left out), a full group header, no payload header. */
    @Test
    void rawDataKeyFrameWithoutPayloadHeader() {
        byte[] golden = bytes("""
                31           // Table 154 UADPVersion 1 | PublisherId 0x10 | GroupHeader 0x20; no ExtendedFlags1:
                             //   PublisherId Type 000 (Byte) is its default
                07           // Table 154 PublisherId Byte 7
                0B           // Table 154 GroupFlags: WriterGroupId 0x01, GroupVersion 0x02, SequenceNumber 0x08
                0A 00        // Table 154 WriterGroupId 10
                78 56 34 12  // Table 154 GroupVersion (VersionTime, UInt32) 0x12345678
                02 01        // Table 154 SequenceNumber 0x0102
                1B           // Table 162 DataSetFlags1: valid 0x01, field encoding 01 RawData (0x02),
                             //   SequenceNumber 0x08, Status 0x10; no DataSetFlags2 (key frame, no timestamp)
                05 00        // Table 162 DataSetMessageSequenceNumber 5
                00 40        // Table 162 Status: high 16 bits of Uncertain 0x40000000
                             // Table 163 FieldCount: left out for RawData
                EF BE        // 7.2.4.5.11 field "u16": UInt16 0xBEEF
                02 00 00 00 61 62 00 00  // 7.2.4.5.11 field "s": String "ab", zero-padded to MaxStringLength 4
                01           // 7.2.4.5.11 field "b": Boolean true
                """);
        DataSetMetaDataType meta = metaData(field("u16", BuiltinType.UInt16), field("s", BuiltinType.String, 4),
                field("b", BuiltinType.Boolean));
        MetaDataLookup lookup = (p, g, w) -> p.equals(PublisherId.ofByte(7)) && g == 10 && w == 0 ? meta : null;
        UadpLayout layout = new UadpLayout(UadpNetworkMessageContentMask.PublisherId
                | UadpNetworkMessageContentMask.GroupHeader | UadpNetworkMessageContentMask.WriterGroupId
                | UadpNetworkMessageContentMask.GroupVersion | UadpNetworkMessageContentMask.SequenceNumber,
                UadpDataSetMessageContentMask.Status | UadpDataSetMessageContentMask.SequenceNumber,
                DataSetFieldContentMask.RawData);
        NetworkMessage message = new NetworkMessage(null, PublisherId.ofByte(7), 10, 0x12345678L, 0x0102, null,
                List.of(new DataSetMessage(0, DataSetMessageType.KEY_FRAME, 5, null, null, StatusCode.UNCERTAIN,
                        fields(meta, Variant.ofUInt16(0xBEEF), Variant.ofString("ab"), Variant.ofBoolean(true)))));

        byte[] encoded = new UadpMessageEncoder(CodecRegistry.standard(), layout, lookup, () -> TIME).encode(message);

        assertThat(hex(encoded)).isEqualTo(hex(golden));
        assertThat(new UadpMessageDecoder(CodecRegistry.standard(), EncodingLimits.DEFAULT, lookup)
                .decodeNetworkMessage(golden)).isEqualTo(message);
    }

    /** Two DataSetMessages: the Sizes array, a delta frame with field indexes and a keep-alive. */
    @Test
    void deltaFrameAndKeepAliveWithSizes() {
        byte[] golden = bytes("""
                41           // Table 154 UADPVersion 1 | PayloadHeader 0x40
                02           // Table 160 Count 2
                01 00 02 00  // Table 160 DataSetWriterIds 1, 2
                0C 00 02 00  // Table 161 Sizes 12, 2
                81           // Table 162 DataSetFlags1: valid, Variant, DataSetFlags2 0x80
                01           // Table 162 DataSetFlags2: type 0001 delta frame
                02 00        // Table 164 FieldCount 2
                07 00        // Table 164 FieldIndex 7
                01 01        //   FieldValue Variant Boolean true
                03 00        // Table 164 FieldIndex 3
                03 FF        //   FieldValue Variant Byte 255
                81           // Table 162 DataSetFlags1: valid, Variant, DataSetFlags2 0x80
                03           // Table 162 DataSetFlags2: type 0011 keep-alive; no body (7.2.4.5.8)
                """);
        NetworkMessage message = new NetworkMessage(null, null, 0, 0, 0, null, List.of(
                new DataSetMessage(1, DataSetMessageType.DELTA_FRAME, 0, null, null, null, List.of(
                        new DataSetField(7, null,
                                DataValue.of(Variant.ofBoolean(true))),
                        new DataSetField(3, null,
                                DataValue.of(Variant.ofByte(255))))),
                new DataSetMessage(2, DataSetMessageType.KEEP_ALIVE, 0, null, null, null, List.of())));
        UadpLayout layout = new UadpLayout(UadpNetworkMessageContentMask.PayloadHeader, 0, 0);

        assertThat(hex(new UadpMessageEncoder(layout).encode(message))).isEqualTo(hex(golden));
        assertThat(new UadpMessageDecoder(MetaDataLookup.NONE).decodeNetworkMessage(golden)).isEqualTo(message);
    }
}
