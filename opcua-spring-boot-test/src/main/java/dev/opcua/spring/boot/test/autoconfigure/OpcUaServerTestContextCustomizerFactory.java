package dev.opcua.spring.boot.test.autoconfigure;

import java.util.List;
import java.util.Map;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * The defaults of an {@link OpcUaServerTest}: {@code opcua.server.port=0} and {@code opcua.server.shutdown-delay=0s}
 * in a property source after the test's own properties ({@code @OpcUaServerTest(properties)},
 * {@code @TestPropertySource}, {@code @DynamicPropertySource}) and before the system properties, environment
 * variables and the application's configuration files: the test's properties win, the application's do not.
 */
class OpcUaServerTestContextCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass,
            List<ContextConfigurationAttributes> configAttributes) {
        return TestContextAnnotationUtils.hasAnnotation(testClass, OpcUaServerTest.class)
                ? new ServerTestDefaults()
                : null;
    }

    /** Adds the defaults; equal to every other, so that it does not keep contexts from being cached. */
    static final class ServerTestDefaults implements ContextCustomizer {

        static final String PROPERTY_SOURCE_NAME = "OPC UA server test defaults";

        static final Map<String, Object> DEFAULTS = Map.of("opcua.server.port", "0",
                "opcua.server.shutdown-delay", "0s");

        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
            MutablePropertySources sources = context.getEnvironment().getPropertySources();
            MapPropertySource defaults = new MapPropertySource(PROPERTY_SOURCE_NAME, DEFAULTS);
            // the test's sources (inlined, files, dynamic) are all added first, ahead of the system properties
            String systemProperties = StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME;
            if (sources.contains(systemProperties)) {
                sources.addBefore(systemProperties, defaults);
            } else {
                sources.addLast(defaults);
            }
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof ServerTestDefaults;
        }

        @Override
        public int hashCode() {
            return ServerTestDefaults.class.hashCode();
        }
    }
}
