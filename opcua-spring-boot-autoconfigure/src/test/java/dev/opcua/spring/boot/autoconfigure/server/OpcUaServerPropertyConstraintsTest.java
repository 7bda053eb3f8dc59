package dev.opcua.spring.boot.autoconfigure.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.autoconfigure.diagnostics.StartupFailures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A value out of the range of its {@code opcua.server.*} property fails start-up while the properties
 * are bound, before the server is built, with a report naming the key, the value and the constraint:
 * one value for each group of constrained properties.
 */
class OpcUaServerPropertyConstraintsTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class))
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1");

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', textBlock = """
            port                                           | 70000 | must be less than or equal to 65535
            application-name                               | ' '   | must not be blank
            path                                           | plant | must start with '/'
            hostnames[0]                                   | ' '   | must not be blank
            shutdown-delay                                 | -1s   | must be a positive duration
            transport.max-message-size                     | 0B    | must be a size of 1 to 2147483647 bytes
            transport.max-buffer-size                      | 8191B | must be a size of 8192
            transport.hello-timeout                        | 0s    | must be a positive duration
            transport.io-threads                           | -1    | must be greater than or equal to 0
            requests.max-threads                           | 0     | must be greater than 0
            requests.worker-keep-alive                     | 0s    | must be a positive duration
            limits.max-sessions                            | 0     | must be greater than 0
            limits.operation.max-nodes-per-read            | -1    | must be greater than or equal to 0
            subscriptions.min-publishing-interval          | 0ms   | must be a positive duration
            subscriptions.max-event-queue-size             | 0     | must be greater than 0
            security.min-key-size                          | -1    | must be greater than or equal to 0
            security.certificate.key-size                  | 1024  | must be greater than or equal to 2048
            security.certificate.validity                  | 0d    | must be a positive period
            access.namespaces[0].uri                       | ' '   | must not be blank
            """)
    void a_value_out_of_range_fails_at_binding_naming_the_key(String key, String value, String constraint) {
        contextRunner.withPropertyValues("opcua.server." + key + "=" + value).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasRootCauseInstanceOf(BindValidationException.class);
            FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).contains("Property: opcua.server." + key + "\n")
                    .contains("Reason: " + constraint);
        });
    }
}
