package dev.opcua.spring.boot.autoconfigure.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.autoconfigure.diagnostics.StartupFailures;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.subscriptions.SubscriptionSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code opcua.server.subscriptions.max-durable-lifetime} and {@code max-durable-queue-size}: the maxima of
 * durable subscriptions (Part 5, 9.3 SetSubscriptionDurable; Part 4, 6.8).
 */
class DurableSubscriptionPropertiesTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class))
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
                    "opcua.server.security.policies=None");

    @Test
    void defaults_are_24_hours_and_queues_of_10000() {
        contextRunner.run(context -> {
            SubscriptionSettings settings = context.getBean(OpcUaServer.class).config().subscriptionSettings();
            assertThat(settings.maxDurableLifetime()).isEqualTo(Duration.ofHours(24));
            assertThat(settings.maxDurableQueueSize()).isEqualTo(10_000);
        });
    }

    @Test
    void the_properties_set_the_maxima() {
        contextRunner.withPropertyValues("opcua.server.subscriptions.max-durable-lifetime=72h",
                "opcua.server.subscriptions.max-durable-queue-size=50000").run(context -> {
                    SubscriptionSettings settings = context.getBean(OpcUaServer.class).config().subscriptionSettings();
                    assertThat(settings.maxDurableLifetime()).isEqualTo(Duration.ofHours(72));
                    assertThat(settings.maxDurableQueueSize()).isEqualTo(50_000);
                });
    }

    @Test
    void the_save_period_is_set_and_one_below_10_ms_names_the_property() {
        contextRunner.withPropertyValues("opcua.server.subscriptions.durable-save-period=250ms").run(context ->
                assertThat(context.getBean(OpcUaServer.class).config().subscriptionSettings().durableSavePeriod())
                        .isEqualTo(Duration.ofMillis(250)));
        contextRunner.withPropertyValues("opcua.server.subscriptions.durable-save-period=5ms").run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure());
            assertThat(analysis).as("analysis of %s", context.getStartupFailure()).isNotNull();
            assertThat(analysis.getDescription()).contains("opcua.server.subscriptions.durable-save-period");
        });
    }

    @Test
    void a_lifetime_below_one_hour_names_the_property() {
        contextRunner.withPropertyValues("opcua.server.subscriptions.max-durable-lifetime=30m").run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure());
            assertThat(analysis).as("analysis of %s", context.getStartupFailure()).isNotNull();
            assertThat(analysis.getDescription()).contains("opcua.server.subscriptions.max-durable-lifetime");
        });
    }
}
