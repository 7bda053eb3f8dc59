package dev.opcua.spring.boot.autoconfigure.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.mock.env.MockEnvironment;

/** Spring's INFO line about a missing Bean Validation provider, kept out of an application that has none. */
class BeanValidationLogEnvironmentPostProcessorTest {

    private final ClassLoader withProvider = getClass().getClassLoader(); // Hibernate Validator, for other tests
    private final ClassLoader withoutProvider = new ClassLoader(withProvider) {
        @Override
        public URL getResource(String name) {
            return name.equals(BeanValidationLogEnvironmentPostProcessor.PROVIDER) ? null : super.getResource(name);
        }
    };

    @Test
    void without_a_provider_the_logger_reports_warnings_only() {
        MockEnvironment environment = new MockEnvironment();

        assertThat(BeanValidationLogEnvironmentPostProcessor.apply(environment, withoutProvider)).isTrue();
        assertThat(environment.getProperty(BeanValidationLogEnvironmentPostProcessor.LOGGER_LEVEL)).isEqualTo("warn");
    }

    @Test
    void with_a_provider_or_a_level_of_the_application_nothing_changes() {
        MockEnvironment environment = new MockEnvironment();
        assertThat(BeanValidationLogEnvironmentPostProcessor.apply(environment, withProvider)).isFalse();
        assertThat(environment.containsProperty(BeanValidationLogEnvironmentPostProcessor.LOGGER_LEVEL)).isFalse();

        environment.setProperty(BeanValidationLogEnvironmentPostProcessor.LOGGER_LEVEL, "debug");
        assertThat(BeanValidationLogEnvironmentPostProcessor.apply(environment, withoutProvider)).isFalse();
        assertThat(environment.getProperty(BeanValidationLogEnvironmentPostProcessor.LOGGER_LEVEL)).isEqualTo("debug");
    }

    @Test
    void it_is_registered_for_every_application() {
        DeferredLogFactory logs = Supplier::get;
        assertThat(SpringFactoriesLoader.forDefaultResourceLocation().load(EnvironmentPostProcessor.class,
                SpringFactoriesLoader.ArgumentResolver.of(DeferredLogFactory.class, logs)))
                .hasAtLeastOneElementOfType(BeanValidationLogEnvironmentPostProcessor.class);
    }
}
