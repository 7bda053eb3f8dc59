package dev.opcua.spring.boot.autoconfigure.pubsub;

import dev.opcua.spring.boot.pubsub.OpcUaPubSubLifecycle;
import dev.opcua.spring.boot.pubsub.OpcUaPubSubListenerAnnotationBeanPostProcessor;
import dev.opcua.spring.boot.pubsub.OpcUaPubSubListeners;
import dev.opcua.spring.boot.server.OpcUaServerLifecycle;
import dev.opcua.spring.boot.server.annotation.OpcUaAnnotatedNodeManagers;
import dev.opcua.spring.boot.server.annotation.UaPublishedVariable;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.pubsub.runtime.FieldTargetWriter;
import dev.opcua.stack.pubsub.runtime.InMemoryDataSetSource;
import dev.opcua.stack.pubsub.runtime.PubSubService;
import dev.opcua.stack.pubsub.server.AddressSpaceDataSets;
import dev.opcua.stack.pubsub.server.PubSubInformationModel;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.OperationContext;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of OPC UA PubSub from {@code opcua.pubsub.*} (off unless {@code opcua.pubsub.enabled=true}):
 * an {@link OpcUaPubSubLifecycle} that builds and runs the {@link PubSubService} with the context. With an OPC UA
 * server in the application, data sets are sampled from its address space and readers write into it, and PubSub
 * starts after the server: variables annotated {@code @UaVariable(published = ...)} join their data sets, and the
 * server shows the PubSub configuration below its PublishSubscribe object ({@code opcua.pubsub.information-model}).
 * Without one, the application sets published values on the {@link InMemoryDataSetSource} bean and reads through
 * {@code @OpcUaPubSubListener} methods.
 */
@AutoConfiguration(afterName = "dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration")
@ConditionalOnClass(PubSubService.class)
@ConditionalOnBooleanProperty("opcua.pubsub.enabled")
@EnableConfigurationProperties(OpcUaPubSubProperties.class)
public final class OpcUaPubSubAutoConfiguration {

    private static final Log log = LogFactory.getLog(OpcUaPubSubAutoConfiguration.class);

    @Bean
    static OpcUaPubSubListeners opcUaPubSubListeners() {
        return new OpcUaPubSubListeners();
    }

    @Bean
    static OpcUaPubSubListenerAnnotationBeanPostProcessor opcUaPubSubListenerAnnotationBeanPostProcessor(
            OpcUaPubSubListeners opcUaPubSubListeners) {
        return new OpcUaPubSubListenerAnnotationBeanPostProcessor(opcUaPubSubListeners);
    }

    @Bean
    @ConditionalOnMissingBean(OpcUaPubSubLifecycle.class)
    OpcUaPubSubLifecycle opcUaPubSub(OpcUaPubSubProperties properties, Environment environment,
            ObjectProvider<SslBundles> sslBundles, OpcUaPubSubListeners listeners,
            ObjectProvider<InMemoryDataSetSource> values) {
        OpcUaPubSubFactory factory = factory(properties, environment, sslBundles, listeners);
        InMemoryDataSetSource source = values.getIfAvailable(InMemoryDataSetSource::new);
        return new OpcUaPubSubLifecycle(() -> {
            PubSubService service = factory.create(source, FieldTargetWriter.NONE, null, null);
            service.dataSets().values().forEach(source::add);
            return service;
        }, factory.startTimeout());
    }

    static OpcUaPubSubFactory factory(OpcUaPubSubProperties properties, Environment environment,
            ObjectProvider<SslBundles> sslBundles, OpcUaPubSubListeners listeners) {
        return new OpcUaPubSubFactory(properties, environment.getProperty("spring.application.name"),
                sslBundles.getIfAvailable(), listeners);
    }

    /** PubSub on the application's OPC UA server: after it starts, from and into its address space. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(OpcUaServer.class)
    @ConditionalOnBean(OpcUaServer.class)
    static class OnServer {

        /** The server lifecycle parameter makes PubSub start after the server and stop before it. */
        @Bean
        @ConditionalOnMissingBean(OpcUaPubSubLifecycle.class)
        OpcUaPubSubLifecycle opcUaPubSub(OpcUaPubSubProperties properties, Environment environment,
                ObjectProvider<SslBundles> sslBundles, OpcUaPubSubListeners listeners, OpcUaServer server,
                OpcUaServerLifecycle serverLifecycle, ObjectProvider<OpcUaAnnotatedNodeManagers> annotated) {
            OpcUaPubSubFactory factory = factory(properties, environment, sslBundles, listeners);
            AddressSpaceDataSets addressSpace = new AddressSpaceDataSets(server);
            Function<String, Integer> namespaceIndex = uri -> server.namespaces().indexOf(uri);
            return new OpcUaPubSubLifecycle(() -> factory.create(addressSpace, addressSpace, namespaceIndex,
                    nodeId -> builtinTypeOf(server, nodeId), publishedVariables(annotated)), factory.startTimeout(),
                    properties.isInformationModel() ? informationModel(server, factory) : null);
        }

        /** The annotated variables' fields, read at start: their NodeIds are known once the server started. */
        private static List<UaPublishedVariable> publishedVariables(
                ObjectProvider<OpcUaAnnotatedNodeManagers> annotated) {
            OpcUaAnnotatedNodeManagers managers = annotated.getIfAvailable();
            return managers == null ? List.of() : managers.publishedVariables();
        }

        /**
         * Shows the service below the server's PublishSubscribe object after its first start. The server cannot
         * drop the model's node manager again, so a restarted service (context stopped and started) is not shown.
         */
        private static Consumer<PubSubService> informationModel(OpcUaServer server, OpcUaPubSubFactory factory) {
            AtomicBoolean shown = new AtomicBoolean();
            return service -> {
                if (!shown.compareAndSet(false, true)) {
                    log.info("OPC UA PubSub restarted; the server's information model keeps the first start's"
                            + " PubSub nodes");
                    return;
                }
                try {
                    PubSubInformationModel model = PubSubInformationModel.register(server, service,
                            factory.brokerUrls());
                    log.info("OPC UA PubSub: the server shows the PubSub configuration in namespace "
                            + model.namespaceUri());
                } catch (RuntimeException e) {
                    log.warn("OPC UA PubSub: the server cannot show the PubSub information model (" + e.getMessage()
                            + "); PubSub runs without it. Set opcua.pubsub.information-model=false to leave it out.");
                }
            };
        }

        /** The built-in type of a variable's current value, to describe a field configured without a type. */
        private static BuiltinType builtinTypeOf(OpcUaServer server, NodeId nodeId) {
            try {
                DataValue[] values = server.nodeManagers().read(OperationContext.INTERNAL,
                        new ReadValueId[] {new ReadValueId(nodeId, AttributeIds.Value, null, QualifiedName.NULL)}, 0,
                        TimestampsToReturn.Neither).get(5, TimeUnit.SECONDS);
                DataValue value = values[0];
                return value.value() == null || value.value().isNull() ? null : value.value().type();
            } catch (Exception e) {
                return null;
            }
        }
    }
}
