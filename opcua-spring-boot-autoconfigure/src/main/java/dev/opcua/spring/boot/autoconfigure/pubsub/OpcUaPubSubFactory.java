package dev.opcua.spring.boot.autoconfigure.pubsub;

import dev.opcua.spring.boot.autoconfigure.pubsub.OpcUaPubSubPropertiesMapper.ConnectionProperties;
import dev.opcua.spring.boot.pubsub.OpcUaPubSubListeners;
import dev.opcua.spring.boot.server.annotation.UaPublishedVariable;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.PubSubState;
import dev.opcua.stack.pubsub.config.DataSetWriterConfig;
import dev.opcua.stack.pubsub.config.PubSubConnectionConfig;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import dev.opcua.stack.pubsub.config.WriterGroupConfig;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;

/**
 * Builds the application's {@link PubSubService} from {@code opcua.pubsub.*}: the data sets (with the variables
 * annotated {@code @UaVariable(published = ...)}), each connection with its writer groups and readers and its MQTT
 * transport (TLS from a Spring SSL bundle, the status will), the JSON layout of each writer group, the listeners
 * of {@code @OpcUaPubSubListener} methods, and where values come from and go to.
 */
final class OpcUaPubSubFactory {

    private static final Log log = LogFactory.getLog(OpcUaPubSubFactory.class);

    private final OpcUaPubSubProperties properties;
    private final String applicationName;
    private final SslBundles sslBundles;
    private final OpcUaPubSubListeners listeners;
    /** The annotated data sets that no writer sends, warned about once. */
    private final Set<String> warnedUnwritten = new TreeSet<>();

    OpcUaPubSubFactory(OpcUaPubSubProperties properties, String applicationName, SslBundles sslBundles,
            OpcUaPubSubListeners listeners) {
        this.properties = properties;
        this.applicationName = applicationName;
        this.sslBundles = sslBundles;
        this.listeners = listeners;
    }

    /** {@link #create(DataSetSource, FieldTargetWriter, Function, Function, List)} without annotated variables. */
    PubSubService create(DataSetSource source, FieldTargetWriter targets, Function<String, Integer> namespaceIndex,
            Function<NodeId, BuiltinType> dataTypeOf) {
        return create(source, targets, namespaceIndex, dataTypeOf, List.of());
    }

    /**
     * @param source where writer groups sample their data sets
     * @param targets where readers write their fields
     * @param namespaceIndex resolves {@code nsu=} node ids (null without a server)
     * @param dataTypeOf the built-in type of a variable (null without a server)
     * @param annotated the variables annotated {@code @UaVariable(published = ...)}
     */
    PubSubService create(DataSetSource source, FieldTargetWriter targets, Function<String, Integer> namespaceIndex,
            Function<NodeId, BuiltinType> dataTypeOf, List<UaPublishedVariable> annotated) {
        OpcUaPubSubPropertiesMapper mapper = new OpcUaPubSubPropertiesMapper(properties);
        PublisherId applicationId = mapper.publisherId(applicationName);
        List<ConnectionProperties> connections = mapper.connections();
        List<PublishedDataSet> dataSets = mapper.dataSets(namespaceIndex, dataTypeOf, annotated);
        Set<String> dataSetNames = new LinkedHashSet<>();
        dataSets.forEach(set -> dataSetNames.add(set.name()));
        MqttTopicTree topics = MqttTopicTree.withPrefix(mapper.topicPrefix(connections));
        // every value is checked before the first transport is made: a wrong one leaves nothing open
        List<PubSubConnectionConfig> configs = new ArrayList<>();
        List<MqttSettings> settings = new ArrayList<>();
        for (ConnectionProperties connection : connections) {
            PublisherId publisherId = mapper.publisherId(connection, applicationId);
            configs.add(mapper.connection(connection, publisherId, namespaceIndex, dataSetNames));
            MqttSettings.Builder mqtt = mapper.mqtt(connection, publisherId);
            tls(connection, mqtt);
            // The broker announces the publisher in Error when the connection is lost (Part 14, 7.3.5.7.8).
            mqtt.will(new MqttWill(topics.status(MqttTopics.Encoding.JSON, publisherId),
                    StandardMessageMappings.status(CodecRegistry.standard(), publisherId, PubSubState.Error),
                    QualityOfService.AT_LEAST_ONCE, true));
            settings.add(mqtt.build());
        }
        warnUnwritten(annotated, configs);
        PubSubService.Builder builder = PubSubService.builder()
                .mappings(new StandardMessageMappings(CodecRegistry.standard(), EncodingLimits.DEFAULT,
                        group -> mapper.jsonLayouts().get(group)))
                .topics(topics)
                .maxMessageSize(mapper.maxMessageSize())
                .source(source)
                .targetWriter(targets);
        dataSets.forEach(builder::dataSet);
        listeners.forEach(builder::listener);
        List<MqttTransport> transports = new ArrayList<>();
        try {
            for (int i = 0; i < configs.size(); i++) {
                MqttTransport transport = new MqttTransport(settings.get(i));
                transports.add(transport);
                builder.connection(configs.get(i), transport);
            }
            return builder.build();
        } catch (IllegalArgumentException e) {
            transports.forEach(MqttTransport::close);
            throw new InvalidOpcUaPubSubPropertyException(null, null, e.getMessage(),
                    "writers that name configured data sets, listeners that name configured readers", e);
        } catch (RuntimeException e) {
            transports.forEach(MqttTransport::close);
            throw e;
        }
    }

    /** The broker URL of each connection by name, as the information model shows them. */
    Map<String, String> brokerUrls() {
        Map<String, String> urls = new LinkedHashMap<>();
        for (ConnectionProperties connection : new OpcUaPubSubPropertiesMapper(properties).connections()) {
            urls.put(connection.name(), connection.mqtt().getBrokerUrl());
        }
        return urls;
    }

    /** How long a start waits for the brokers: the longest connect timeout of the connections. */
    Duration startTimeout() {
        Duration longest = properties.getMqtt().getConnectTimeout();
        for (OpcUaPubSubProperties.Connection connection : properties.getConnections().values()) {
            Duration own = connection.getMqtt().getConnectTimeout();
            if (own != null && (longest == null || own.compareTo(longest) > 0)) {
                longest = own;
            }
        }
        return longest == null ? Duration.ofSeconds(10) : longest;
    }

    /** A data set that annotations name and no writer sends is allowed: it may be meant for later. */
    private void warnUnwritten(List<UaPublishedVariable> annotated, List<PubSubConnectionConfig> configs) {
        Set<String> written = new LinkedHashSet<>();
        for (PubSubConnectionConfig config : configs) {
            for (WriterGroupConfig group : config.writerGroups()) {
                group.writers().stream().map(DataSetWriterConfig::dataSet).forEach(written::add);
            }
        }
        for (UaPublishedVariable variable : annotated) {
            String name = variable.dataSet();
            if (!written.contains(name) && warnedUnwritten.add(name)) {
                log.warn("OPC UA PubSub: the data set " + name + " of @UaVariable(published = \"" + name + "\") ("
                        + variable.member() + ") is sent by no writer; add one under "
                        + OpcUaPubSubPropertiesMapper.PREFIX + ".writer-groups.<group>.writers.<writer>.data-set="
                        + name);
            }
        }
    }

    private void tls(ConnectionProperties connection, MqttSettings.Builder mqtt) {
        String name = connection.mqtt().getSslBundle();
        if (name == null || name.isBlank()) {
            return;
        }
        String key = OpcUaPubSubPropertiesMapper.PREFIX + "." + connection.base() + "mqtt.ssl-bundle";
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
