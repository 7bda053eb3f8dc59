package dev.opcua.stack.pubsub.runtime;

import dev.opcua.stack.pubsub.config.MessageEncoding;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import dev.opcua.stack.pubsub.config.WriterGroupConfig;
import dev.opcua.stack.pubsub.message.MessageDecoder;
import dev.opcua.stack.pubsub.message.MessageEncoder;
import dev.opcua.stack.pubsub.message.MetaDataLookup;
import dev.opcua.stack.pubsub.message.PublisherId;
import java.util.Map;

/** Makes the encoders of writer groups and the decoders of subscribed topics for an encoding. */
public interface MessageMappings {

    /** The encoder of one writer group. */
    MessageEncoder encoder(MessageEncoding encoding, WriterGroupConfig group, Map<String, PublishedDataSet> dataSets);

    /** A decoder of received messages that finds the metadata of RawData fields through the lookup. */
    MessageDecoder decoder(MessageEncoding encoding, MetaDataLookup lookup);

    /** The bytes of a status message (Part 14, 7.2.5.6): retained while online, and the MQTT will when gone. */
    byte[] status(PublisherId publisherId, boolean online);
}
