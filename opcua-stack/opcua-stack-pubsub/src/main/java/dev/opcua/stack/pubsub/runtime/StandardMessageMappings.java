package dev.opcua.stack.pubsub.runtime;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.enumerated.PubSubState;
import dev.opcua.stack.core.types.enumerated.UadpDataSetMessageContentMask;
import dev.opcua.stack.core.types.enumerated.UadpNetworkMessageContentMask;
import dev.opcua.stack.core.types.structured.DataSetMetaDataType;
import dev.opcua.stack.pubsub.config.DataSetWriterConfig;
import dev.opcua.stack.pubsub.config.MessageEncoding;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import dev.opcua.stack.pubsub.config.WriterGroupConfig;
import dev.opcua.stack.pubsub.message.MessageDecoder;
import dev.opcua.stack.pubsub.message.MessageEncoder;
import dev.opcua.stack.pubsub.message.MetaDataLookup;
import dev.opcua.stack.pubsub.message.MetaDataMessage;
import dev.opcua.stack.pubsub.message.NetworkMessage;
import dev.opcua.stack.pubsub.message.PublisherId;
import dev.opcua.stack.pubsub.message.json.JsonLayout;
import dev.opcua.stack.pubsub.message.json.JsonMessageDecoder;
import dev.opcua.stack.pubsub.message.json.JsonMessageEncoder;
import dev.opcua.stack.pubsub.message.uadp.UadpLayout;
import dev.opcua.stack.pubsub.message.uadp.UadpMessage;
import dev.opcua.stack.pubsub.message.uadp.UadpMessageDecoder;
import dev.opcua.stack.pubsub.message.uadp.UadpMessageEncoder;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The message mappings of Part 14, 7.2: JSON ({@link JsonLayout#DEFAULT} unless given, for all writer groups or
 * per group) and UADP. A UADP writer
 * group carries one DataSetFieldContentMask for all its writers (the first writer's), the layout's header bits
 * otherwise {@link UadpLayout#DEFAULT} plus the group header's sequence number and the data set messages'
 * sequence numbers, which readers use to see losses.
 */
public final class StandardMessageMappings implements MessageMappings {

    private final CodecRegistry registry;
    private final EncodingLimits limits;
    private final Function<WriterGroupConfig, JsonLayout> jsonLayouts;

    public StandardMessageMappings(CodecRegistry registry) {
        this(registry, EncodingLimits.DEFAULT, JsonLayout.DEFAULT);
    }

    public StandardMessageMappings(CodecRegistry registry, EncodingLimits limits, JsonLayout jsonLayout) {
        this(registry, limits, group -> jsonLayout);
        Objects.requireNonNull(jsonLayout, "jsonLayout");
    }

    /**
     * Mappings whose JSON writer groups each get their own layout, such as {@link JsonLayout#withVariantFields()}
     * for the groups that subscribers without the metadata read.
     *
     * @param jsonLayouts the layout of a JSON writer group; null answers {@link JsonLayout#DEFAULT}
     */
    public StandardMessageMappings(CodecRegistry registry, EncodingLimits limits,
            Function<WriterGroupConfig, JsonLayout> jsonLayouts) {
        this.registry = registry;
        this.limits = limits;
        this.jsonLayouts = Objects.requireNonNull(jsonLayouts, "jsonLayouts");
    }

    @Override
    public MessageEncoder encoder(MessageEncoding encoding, WriterGroupConfig group,
            Map<String, PublishedDataSet> dataSets) {
        Map<Integer, PublishedDataSet> byWriter = new HashMap<>();
        Map<Integer, Long> masks = new HashMap<>();
        for (DataSetWriterConfig writer : group.writers()) {
            byWriter.put(writer.id(), dataSets.get(writer.dataSet()));
            masks.put(writer.id(), writer.fieldContentMask());
        }
        if (encoding == MessageEncoding.JSON) {
            JsonLayout layout = jsonLayouts.apply(group);
            return new JsonMessageEncoder(registry, layout == null ? JsonLayout.DEFAULT : layout, byWriter, masks);
        }
        UadpLayout layout = new UadpLayout(
                UadpLayout.DEFAULT.networkMessageContentMask() | UadpNetworkMessageContentMask.SequenceNumber,
                UadpLayout.DEFAULT.dataSetMessageContentMask() | UadpDataSetMessageContentMask.SequenceNumber,
                group.writers().get(0).fieldContentMask());
        MetaDataLookup metaData = (publisherId, writerGroupId, writerId) -> {
            PublishedDataSet set = byWriter.get(writerId);
            return set == null ? null : set.metaData();
        };
        UadpMessageEncoder uadp = new UadpMessageEncoder(registry, layout, metaData, DateTime::now);
        return new MessageEncoder() {
            private int announcements;

            @Override
            public byte[] encode(NetworkMessage message) {
                return uadp.encode(message);
            }

            @Override
            public byte[] encodeMetaData(MetaDataMessage message) {
                return uadp.encodeMetaData(message, announcements++ & 0xFFFF);
            }
        };
    }

    @Override
    public MessageDecoder decoder(MessageEncoding encoding, MetaDataLookup lookup) {
        if (encoding == MessageEncoding.JSON) {
            return new JsonMessageDecoder(registry, limits, lookup);
        }
        UadpMessageDecoder uadp = new UadpMessageDecoder(registry, limits, lookup);
        return bytes -> {
            UadpMessage message = uadp.decode(bytes);
            if (message instanceof UadpMessage.MetaData meta) {
                return meta.message();
            }
            return ((UadpMessage.Data) message).message();
        };
    }

    @Override
    public byte[] status(PublisherId publisherId, boolean online) {
        return status(registry, publisherId, online ? PubSubState.Operational : PubSubState.Disabled);
    }

    /** A JSON status message (Part 14, 7.2.5.5.5); the MQTT will carries one with Error. */
    public static byte[] status(CodecRegistry registry, PublisherId publisherId, PubSubState state) {
        return JsonMessageEncoder.status(registry, publisherId, state);
    }

    /** The metadata lookup of a map of data sets by writer id, for tests and tools. */
    static MetaDataLookup lookupOf(Map<Integer, DataSetMetaDataType> byWriter) {
        return (publisherId, writerGroupId, writerId) -> byWriter.get(writerId);
    }
}
