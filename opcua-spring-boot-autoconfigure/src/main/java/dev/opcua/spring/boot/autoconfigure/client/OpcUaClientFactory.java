package dev.opcua.spring.boot.autoconfigure.client;

import dev.opcua.spring.boot.autoconfigure.ssl.SslBundleCertificates;
import dev.opcua.spring.boot.client.OpcUaClientCustomizer;
import dev.opcua.spring.boot.client.OpcUaClientRequestObservers;
import dev.opcua.spring.boot.client.OpcUaReverseConnectListeners;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.services.RequestObserver;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ssl.SslBundles;

/**
 * Makes the {@link OpcUaClient} of one configured connection: its properties, then the request
 * observers of every {@link OpcUaClientRequestObservers} bean, then every {@link OpcUaClientCustomizer}
 * bean in order. The client beans that {@link OpcUaClientBeanRegistrar} declares are made here.
 */
public class OpcUaClientFactory {

    private final OpcUaClientProperties properties;
    private final ObjectProvider<OpcUaClientCustomizer> customizers;
    private final ObjectProvider<OpcUaClientRequestObservers> observers;
    private final SslBundles sslBundles;
    private final OpcUaReverseConnectListeners reverseConnectListeners;

    public OpcUaClientFactory(OpcUaClientProperties properties, ObjectProvider<OpcUaClientCustomizer> customizers,
            ObjectProvider<OpcUaClientRequestObservers> observers) {
        this(properties, customizers, observers, null);
    }

    /** @param sslBundles the application's SSL bundles, for {@code certificate.bundle}; may be null */
    public OpcUaClientFactory(OpcUaClientProperties properties, ObjectProvider<OpcUaClientCustomizer> customizers,
            ObjectProvider<OpcUaClientRequestObservers> observers, SslBundles sslBundles) {
        this(properties, customizers, observers, sslBundles, OpcUaReverseConnectListeners.NONE);
    }

    /**
     * @param sslBundles the application's SSL bundles, for {@code certificate.bundle}; may be null
     * @param reverseConnectListeners the listeners of the connections with {@code reverse-connect.listen-port};
     *        they must outlive the clients made here
     */
    public OpcUaClientFactory(OpcUaClientProperties properties, ObjectProvider<OpcUaClientCustomizer> customizers,
            ObjectProvider<OpcUaClientRequestObservers> observers, SslBundles sslBundles,
            OpcUaReverseConnectListeners reverseConnectListeners) {
        this.properties = properties;
        this.customizers = customizers;
        this.observers = observers;
        this.sslBundles = sslBundles;
        this.reverseConnectListeners = reverseConnectListeners;
    }

    /**
     * The client of {@code opcua.client.connections.<connection>}, built but not connected.
     *
     * @throws InvalidOpcUaClientPropertyException naming the property that cannot be used
     */
    public OpcUaClient create(String connection) {
        OpcUaClientProperties.Connection settings = properties.getConnections().get(connection);
        if (settings == null) {
            throw new IllegalArgumentException("there is no connection '" + connection + "' under "
                    + OpcUaClientPropertiesMapper.CONNECTIONS + "; the connections are "
                    + properties.getConnections().keySet());
        }
        OpcUaClientPropertiesMapper mapper = new OpcUaClientPropertiesMapper(connection, settings, sslBundles,
                reverseConnectListeners.forConnection(connection).orElse(null));
        OpcUaClientConfig.Builder builder = mapper.builder();
        RequestObserver observer = OpcUaClientRequestObservers.composite(
                observers.orderedStream().map(o -> o.create(connection)).toList());
        builder.requestObserver(observer);
        customizers.orderedStream().forEach(customizer -> customizer.customize(connection, builder));
        OpcUaClient client = OpcUaClient.create(mapper.build(builder));
        String bundle = settings.getCertificate().getBundle();
        if (bundle != null && sslBundles != null) {
            SslBundleCertificates.onReload(sslBundles, bundle, "OPC UA client connection '" + connection + "'",
                    client::replaceCertificate);
        }
        return client;
    }
}
