package dev.opcua.spring.boot.autoconfigure.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.autoconfigure.diagnostics.StartupFailures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A value out of the range of its {@code opcua.client.connections.<name>.*} property fails start-up
 * while the properties are bound, with a report naming the connection's key, for each group.
 */
class OpcUaClientPropertyConstraintsTest {

    private static final String PLANT = "opcua.client.connections.plant.";

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaClientAutoConfiguration.class))
            .withPropertyValues(PLANT + "connect-on-start=false", PLANT + "endpoint-url=opc.tcp://plc:4840/");

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', textBlock = """
            endpoint-url                      | ' ' | must not be blank
            session-timeout                   | 0s  | must be a positive duration
            allowed-security-policies         | ''  | must list one or more security policies
            keep-alive.failures-allowed       | -1  | must be greater than or equal to 0
            reconnect.initial-delay           | 0s  | must be a positive duration
            transport.max-array-length        | 0   | must be greater than 0
            subscriptions.sampling-interval   | -1s | must be a positive duration
            subscriptions.queue-size          | 0   | must be greater than 0
            """)
    void a_value_out_of_range_fails_at_binding_naming_the_key(String key, String value, String constraint) {
        contextRunner.withPropertyValues(PLANT + key + "=" + value).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasRootCauseInstanceOf(BindValidationException.class);
            FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).contains("Property: " + PLANT + key + "\n")
                    .contains("Reason: " + constraint);
        });
    }
}
