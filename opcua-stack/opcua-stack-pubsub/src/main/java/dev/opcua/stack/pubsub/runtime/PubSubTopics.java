package dev.opcua.stack.pubsub.runtime;

import dev.opcua.stack.pubsub.config.MessageEncoding;
import dev.opcua.stack.pubsub.message.PublisherId;

/** The topics of the standard MQTT topic tree a service publishes to and subscribes (Part 14, 7.3.5.4). */
interface PubSubTopics {

    String data(MessageEncoding encoding, PublisherId publisherId, String writerGroup);

    String metaData(MessageEncoding encoding, PublisherId publisherId, String writerGroup, String dataSetWriter);

    /** Every metadata topic of one publisher's writer group. */
    String metaDataFilter(MessageEncoding encoding, PublisherId publisherId, String writerGroup);

    String status(MessageEncoding encoding, PublisherId publisherId);
}
