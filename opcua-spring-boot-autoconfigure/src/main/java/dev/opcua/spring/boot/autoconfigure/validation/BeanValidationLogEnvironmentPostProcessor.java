package dev.opcua.spring.boot.autoconfigure.validation;

import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Keeps Spring's "Failed to set up a Bean Validation provider" line out of the log of an application without a
 * Bean Validation provider. The starter puts the constraint annotations ({@code jakarta.validation-api}) on the
 * class path for {@link PropertyConstraints}, and Spring MVC and WebFlux take the API's presence for a provider's:
 * each creates an {@code OptionalValidatorFactoryBean}, which finds none and says so at INFO on every start, as if
 * something had failed. With a provider on the class path, or the logger's level set by the application, nothing
 * changes.
 */
public class BeanValidationLogEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

    /** The level of the logger that reports the missing provider. */
    static final String LOGGER_LEVEL =
            "logging.level.org.springframework.validation.beanvalidation.OptionalValidatorFactoryBean";

    /** How a provider registers itself (Jakarta Validation 3.1, 5.7.4; what Spring Boot's own condition looks for). */
    static final String PROVIDER = "META-INF/services/jakarta.validation.spi.ValidationProvider";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        apply(environment, application.getClassLoader());
    }

    /** @return whether the logger's level was set to WARN */
    static boolean apply(ConfigurableEnvironment environment, ClassLoader classLoader) {
        if (environment.containsProperty(LOGGER_LEVEL) || classLoader.getResource(PROVIDER) != null) {
            return false;
        }
        environment.getPropertySources().addLast(new MapPropertySource("opcuaNoBeanValidationProvider",
                Map.of(LOGGER_LEVEL, "warn")));
        return true;
    }

    /** Before the logging system reads its levels, after the configuration files (which may set the level). */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
