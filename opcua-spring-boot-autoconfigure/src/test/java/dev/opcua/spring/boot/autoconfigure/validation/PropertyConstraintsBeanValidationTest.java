package dev.opcua.spring.boot.autoconfigure.validation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.autoconfigure.client.OpcUaClientAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.client.OpcUaClientProperties;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerProperties;
import jakarta.validation.Validation;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hibernate.validator.HibernateValidator;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.util.ClassUtils;
import org.springframework.validation.BeanPropertyBindingResult;
import org.springframework.validation.BindingResult;
import org.springframework.validation.FieldError;
import org.springframework.validation.beanvalidation.SpringValidatorAdapter;

/**
 * {@link PropertyConstraints} against Hibernate Validator, which checked the properties before (it is on
 * this module's test class path only): the same errors, paths and messages on the real properties classes
 * with many values broken at once, and an application that brings Hibernate Validator itself (as
 * spring-boot-starter-validation does) still gets each broken property reported once.
 */
class PropertyConstraintsBeanValidationTest {

    /** A broken value in each group of constrained server properties, list elements and nested lists too. */
    private static final Map<String, String> BROKEN_SERVER = Map.ofEntries(
            Map.entry("port", "70000"), Map.entry("application-name", " "), Map.entry("application-uri", ""),
            Map.entry("path", "plant"), Map.entry("hostnames[0]", " "), Map.entry("shutdown-delay", "-1s"),
            Map.entry("transport.max-message-size", "0B"), Map.entry("transport.max-buffer-size", "8191B"),
            Map.entry("transport.hello-timeout", "0s"), Map.entry("transport.io-threads", "-1"),
            Map.entry("transport.max-chunk-count", "-1"), Map.entry("requests.max-threads", "0"),
            Map.entry("requests.worker-keep-alive", "0s"), Map.entry("limits.max-sessions", "0"),
            Map.entry("limits.operation.max-nodes-per-read", "-1"),
            Map.entry("subscriptions.min-publishing-interval", "0ms"),
            Map.entry("subscriptions.max-event-queue-size", "0"), Map.entry("security.min-key-size", "-1"),
            Map.entry("security.policies", ""), Map.entry("security.certificate.key-size", "1024"),
            Map.entry("security.certificate.validity", "0d"),
            Map.entry("security.push-management.max-trust-list-size", "-1B"),
            Map.entry("access.namespaces[0].uri", " "), Map.entry("reverse-connect.clients[0]", ""),
            Map.entry("reverse-connect.ready-connections", "65"),
            Map.entry("redundancy.readiness-min-service-level", "256"));

    private static final Map<String, String> BROKEN_CLIENT = Map.ofEntries(
            Map.entry("connections.plant.endpoint-url", " "), Map.entry("connections.plant.session-timeout", "0s"),
            Map.entry("connections.plant.allowed-security-policies", ""),
            Map.entry("connections.plant.keep-alive.failures-allowed", "-1"),
            Map.entry("connections.plant.reconnect.initial-delay", "0s"),
            Map.entry("connections.plant.transport.max-array-length", "0"),
            Map.entry("connections.plant.subscriptions.sampling-interval", "-1s"),
            Map.entry("connections.plant.subscriptions.queue-size", "0"),
            Map.entry("connections.plant.reverse-connect.listen-port", "-1"),
            Map.entry("connections.line.endpoint-url", ""));

    private final SpringValidatorAdapter hibernateValidator = new SpringValidatorAdapter(Validation
            .byProvider(HibernateValidator.class).configure().defaultLocale(Locale.ENGLISH).buildValidatorFactory()
            .getValidator());

    @Test
    void the_server_properties_get_the_errors_hibernate_validator_reported() {
        OpcUaServerProperties properties = bind("opcua.server", BROKEN_SERVER, new OpcUaServerProperties());
        List<String> ours = errors(properties, properties);
        assertThat(ours).hasSize(BROKEN_SERVER.size())
                .containsExactlyInAnyOrderElementsOf(errors(properties, hibernateValidator))
                .contains("requests.maxThreads: must be greater than 0", "hostnames[0]: must not be blank",
                        "access.namespaces[0].uri: must not be blank");
    }

    @Test
    void the_client_properties_get_the_errors_hibernate_validator_reported() {
        OpcUaClientProperties properties = bind("opcua.client", BROKEN_CLIENT, new OpcUaClientProperties());
        List<String> ours = errors(properties, properties);
        assertThat(ours).hasSize(BROKEN_CLIENT.size())
                .containsExactlyInAnyOrderElementsOf(errors(properties, hibernateValidator))
                .contains("connections[plant].endpointUrl: must not be blank");
    }

    @Test
    void default_properties_break_nothing() {
        assertThat(errors(new OpcUaServerProperties(), new OpcUaServerProperties())).isEmpty();
        assertThat(errors(new OpcUaClientProperties(), new OpcUaClientProperties())).isEmpty();
    }

    @Test
    void with_hibernate_validator_on_the_class_path_a_broken_server_property_is_reported_once() {
        assertReportedOnce(OpcUaServerAutoConfiguration.class, "requests.maxThreads", "opcua.server.port=0",
                "opcua.server.requests.max-threads=0");
    }

    @Test
    void with_hibernate_validator_on_the_class_path_a_broken_client_property_is_reported_once() {
        assertReportedOnce(OpcUaClientAutoConfiguration.class, "connections[plant].endpointUrl",
                "opcua.client.connections.plant.endpoint-url= ",
                "opcua.client.connections.plant.connect-on-start=false");
    }

    private static void assertReportedOnce(Class<?> autoConfiguration, String field, String... properties) {
        // what makes Spring Boot's binder validate a @Validated properties class with Bean Validation
        assertThat(ClassUtils.isPresent("org.hibernate.validator.HibernateValidator", null)).isTrue();
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(autoConfiguration))
                .withPropertyValues(properties).run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().isInstanceOf(BindValidationException.class);
                    BindValidationException failure = (BindValidationException) rootCause(context.getStartupFailure());
                    assertThat(failure.getValidationErrors().getAllErrors()).singleElement()
                            .isInstanceOfSatisfying(FieldError.class, error -> assertThat(error.getField())
                                    .isEqualTo(field));
                });
    }

    private static <T> T bind(String prefix, Map<String, String> values, T properties) {
        MapConfigurationPropertySource source = new MapConfigurationPropertySource();
        values.forEach((key, value) -> source.put(prefix + "." + key, value));
        return new Binder(source).bindOrCreate(prefix, Bindable.ofInstance(properties));
    }

    /** The errors as "field: message", sorted. */
    private static List<String> errors(Object target, org.springframework.validation.Validator validator) {
        BindingResult errors = new BeanPropertyBindingResult(target, "properties");
        validator.validate(target, errors);
        return errors.getFieldErrors().stream().map(error -> error.getField() + ": " + error.getDefaultMessage())
                .sorted().toList();
    }

    private static Throwable rootCause(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
