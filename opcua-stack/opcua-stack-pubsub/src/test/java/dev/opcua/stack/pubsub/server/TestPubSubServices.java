package dev.opcua.stack.pubsub.server;

import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.pubsub.config.MessageEncoding;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import dev.opcua.stack.pubsub.config.WriterGroupConfig;
import dev.opcua.stack.pubsub.message.MessageDecoder;
import dev.opcua.stack.pubsub.message.MessageEncoder;
import dev.opcua.stack.pubsub.message.MetaDataLookup;
import dev.opcua.stack.pubsub.message.MetaDataMessage;
import dev.opcua.stack.pubsub.message.NetworkMessage;
import dev.opcua.stack.pubsub.message.PublisherId;
import dev.opcua.stack.pubsub.runtime.MessageMappings;
import dev.opcua.stack.pubsub.runtime.PubSubService;
import dev.opcua.stack.pubsub.transport.MessageHandler;
import dev.opcua.stack.pubsub.transport.PubSubTransport;
import dev.opcua.stack.pubsub.transport.QualityOfService;
import dev.opcua.stack.pubsub.transport.TransportStatistics;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link PubSubService} for tests of the information model, which needs its configuration and its enable
 * flags but never its messages: a transport that records what it is given and says it is connected while the
 * test wants, mappings that return fixed bytes.
 *
 */
final class TestPubSubServices {

    private TestPubSubServices() {
    }

    /** A transport that is connected until told otherwise and records the topics published to. */
    static final class FakeTransport implements PubSubTransport {
        volatile boolean connected = true;
        final List<String> published = new CopyOnWriteArrayList<>();

        @Override
        public CompletableFuture<Void> start() {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void publish(String topic, byte[] payload, QualityOfService qos, boolean retain) {
            published.add(topic);
        }

        @Override
        public CompletableFuture<Void> subscribe(String topicFilter, QualityOfService qos, MessageHandler handler) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<Void> unsubscribe(String topicFilter) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public TransportStatistics statistics() {
            return new TransportStatistics(published.size(), 0, 0, 0, 0, 0, 0, connected, null, 0);
        }

        @Override
        public boolean isConnected() {
            return connected;
        }

        @Override
        public void close() {
            connected = false;
        }
    }

    /** Mappings whose encoders return one fixed byte and whose decoders refuse everything. */
    static MessageMappings fixedMappings() {
        return new MessageMappings() {
            @Override
            public MessageEncoder encoder(MessageEncoding encoding, WriterGroupConfig group,
                    Map<String, PublishedDataSet> dataSets) {
                return new MessageEncoder() {
                    @Override
                    public byte[] encode(NetworkMessage message) {
                        return new byte[] {1};
                    }

                    @Override
                    public byte[] encodeMetaData(MetaDataMessage message) {
                        return new byte[] {2};
                    }
                };
            }

            @Override
            public MessageDecoder decoder(MessageEncoding encoding, MetaDataLookup lookup) {
                return bytes -> {
                    throw new UaEncodingException(StatusCodes.BadDecodingError, "the test mappings decode nothing");
                };
            }

            @Override
            public byte[] status(PublisherId publisherId, boolean online) {
                return new byte[] {3};
            }
        };
    }

    /** A builder with the fixed mappings and a source of no values. */
    static PubSubService.Builder builder() {
        return PubSubService.builder()
                .mappings(fixedMappings())
                .source(dataSet -> CompletableFuture.completedFuture(new DataValue[0]));
    }
}
