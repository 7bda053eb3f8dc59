package dev.opcua.spring.boot.server;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;

/**
 * Publishes where the OPC UA server listens once it has bound, as Spring Boot publishes {@code local.server.port}
 * for its web server: {@value #PORT_PROPERTY} (the bound TCP port, the one to use when {@code opcua.server.port} is
 * 0) and {@value #ENDPOINT_URL_PROPERTY} (the endpoint URL with the first host name and that port), in a property
 * source named {@value #PROPERTY_SOURCE_NAME} first in the environment of the context and of its ancestors. The
 * server opens one UA TCP port for all its endpoints (every security policy and host name), so one port
 * describes them all. A restart on another port replaces the values.
 */
public class OpcUaServerPortInfoListener implements ApplicationListener<OpcUaServerStartedEvent> {

    /** The property holding the bound port. */
    public static final String PORT_PROPERTY = "local.opcua.server.port";

    /** The property holding the endpoint URL with the bound port. */
    public static final String ENDPOINT_URL_PROPERTY = "local.opcua.server.endpoint-url";

    /** The name of the property source holding both. */
    public static final String PROPERTY_SOURCE_NAME = "opcua.server.ports";

    private final ApplicationContext context;

    public OpcUaServerPortInfoListener(ApplicationContext context) {
        this.context = Objects.requireNonNull(context, "context");
    }

    @Override
    public void onApplicationEvent(OpcUaServerStartedEvent event) {
        Map<String, Object> values = Map.of(PORT_PROPERTY, event.getPort(),
                ENDPOINT_URL_PROPERTY, event.getEndpointUrl());
        for (ApplicationContext c = context; c != null; c = c.getParent()) {
            if (c instanceof ConfigurableApplicationContext configurable) {
                publish(configurable.getEnvironment(), values);
            }
        }
    }

    private static void publish(Environment environment, Map<String, Object> values) {
        if (!(environment instanceof ConfigurableEnvironment configurable)) {
            return;
        }
        MutablePropertySources sources = configurable.getPropertySources();
        PropertySource<?> existing = sources.get(PROPERTY_SOURCE_NAME);
        if (existing instanceof MapPropertySource map) {
            map.getSource().putAll(values);
        } else {
            sources.addFirst(new MapPropertySource(PROPERTY_SOURCE_NAME, new HashMap<>(values)));
        }
    }
}
