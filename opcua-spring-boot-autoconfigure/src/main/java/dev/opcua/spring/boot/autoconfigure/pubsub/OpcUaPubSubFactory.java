package dev.opcua.spring.boot.autoconfigure.pubsub;

import dev.opcua.spring.boot.pubsub.OpcUaPubSubListeners;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.PubSubState;
import dev.opcua.stack.pubsub.config.PubSubConnectionConfig;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import dev.opcua.stack.pubsub.message.PublisherId;
import dev.opcua.stack.pubsub.runtime.DataSetSource;
import dev.opcua.stack.pubsub.runtime.FieldTargetWriter;
import dev.opcua.stack.pubsub.runtime.PubSubService;
import dev.opcua.stack.pubsub.runtime.StandardMessageMappings;
import dev.opcua.stack.pubsub.transport.QualityOfService;
import dev.opcua.stack.pubsub.transport.mqtt.MqttSettings;
import dev.opcua.stack.pubsub.transport.mqtt.MqttTopicTree;
import dev.opcua.stack.pubsub.transport.mqtt.MqttTopics;
import dev.opcua.stack.pubsub.transport.mqtt.MqttTransport;
import dev.opcua.stack.pubsub.transport.mqtt.MqttWill;
import java.util.List;
import java.util.function.Function;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;

/**
 * Builds the application's {@link PubSubService} from {@code opcua.pubsub.*}: the data sets, the connection with
 * its writer groups and readers, the MQTT transport (TLS from a Spring SSL bundle, the status will), the
 * listeners of {@code @OpcUaPubSubListener} methods, and where values come from and go to.
 */
final class OpcUaPubSubFactory {

    private final OpcUaPubSubProperties properties;
    private final String applicationName;
    private final SslBundles sslBundles;
    private final OpcUaPubSubListeners listeners;

    OpcUaPubSubFactory(OpcUaPubSubProperties properties, String applicationName, SslBundles sslBundles,
            OpcUaPubSubListeners listeners) {
        this.properties = properties;
        this.applicationName = applicationName;
        this.sslBundles = sslBundles;
        this.listeners = listeners;
    }

    /**
     * @param source where writer groups sample their data sets
     * @param targets where readers write their fields
     * @param namespaceIndex resolves {@code nsu=} node ids (null without a server)
     * @param dataTypeOf the built-in type of a variable (null without a server)
     */
    PubSubService create(DataSetSource source, FieldTargetWriter targets, Function<String, Integer> namespaceIndex,
            Function<NodeId, BuiltinType> dataTypeOf) {
        OpcUaPubSubPropertiesMapper mapper = new OpcUaPubSubPropertiesMapper(properties);
        PublisherId publisherId = mapper.publisherId(applicationName);
        List<PublishedDataSet> dataSets = mapper.dataSets(namespaceIndex, dataTypeOf);
        PubSubConnectionConfig connection = mapper.connection(publisherId, namespaceIndex);
        MqttTopicTree topics = MqttTopicTree.withPrefix(properties.getMqtt().getTopicPrefix());
        MqttSettings.Builder mqtt = mapper.mqtt(publisherId);
        tls(mqtt);
        // The broker announces the publisher in Error when the connection is lost (Part 14, 7.3.5.7.8).
        mqtt.will(new MqttWill(topics.status(MqttTopics.Encoding.JSON, publisherId),
                StandardMessageMappings.status(CodecRegistry.standard(), publisherId, PubSubState.Error),
                QualityOfService.AT_LEAST_ONCE, true));
        PubSubService.Builder builder = PubSubService.builder()
                .mappings(new StandardMessageMappings(CodecRegistry.standard()))
                .topics(topics)
                .maxMessageSize(mapper.maxMessageSize())
                .source(source)
                .targetWriter(targets)
                .connection(connection, new MqttTransport(mqtt.build()));
        dataSets.forEach(builder::dataSet);
        listeners.forEach(builder::listener);
        try {
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw new InvalidOpcUaPubSubPropertyException(null, null, e.getMessage(),
                    "writers that name configured data sets, listeners that name configured readers", e);
        }
    }

    private void tls(MqttSettings.Builder mqtt) {
        String name = properties.getMqtt().getSslBundle();
        if (name == null || name.isBlank()) {
            return;
        }
        String key = OpcUaPubSubPropertiesMapper.PREFIX + ".mqtt.ssl-bundle";
        if (sslBundles == null) {
            throw new InvalidOpcUaPubSubPropertyException(key, name, "the application has no SSL bundles",
                    "the name of a bundle under spring.ssl.bundle.pem or spring.ssl.bundle.jks", null);
        }
        SslBundle bundle;
        try {
            bundle = sslBundles.getBundle(name);
        } catch (NoSuchSslBundleException e) {
            throw new InvalidOpcUaPubSubPropertyException(key, name, "there is no SSL bundle of that name",
                    "the name of a bundle under spring.ssl.bundle.pem or spring.ssl.bundle.jks", e);
        }
        mqtt.tls(bundle.getManagers().getTrustManagerFactory(),
                bundle.getStores().getKeyStore() == null ? null : bundle.getManagers().getKeyManagerFactory());
    }
}
