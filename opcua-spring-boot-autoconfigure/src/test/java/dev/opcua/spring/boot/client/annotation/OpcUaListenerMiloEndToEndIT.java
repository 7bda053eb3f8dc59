package dev.opcua.spring.boot.client.annotation;

import static dev.opcua.spring.boot.client.annotation.OpcUaListenerEndToEndIT.awaitDelivery;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.spring.boot.autoconfigure.client.OpcUaClientAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.client.annotation.OpcUaListenerAutoConfiguration;
import dev.opcua.spring.boot.client.listener.OpcUaListenerEndpointRegistry;
import dev.opcua.spring.boot.client.listener.OpcUaListenerInfo;
import dev.opcua.spring.boot.testing.MiloTestServer;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.Variant;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Annotated listeners of an auto-configured client receive data changes and events from Eclipse Milo
 * 1.1.2's server. Milo 1.1.2 evaluates Equals, IsNull, the four orderings, Not, Cast and OfType but
 * neither And nor Or: it creates an item whose where clause has them, answers
 * BadFilterOperatorUnsupported for that element in the EventFilterResult and sends no event; the
 * listener reports that as its problem.
 */
class OpcUaListenerMiloEndToEndIT {

    @Test
    void annotated_methods_receive_milos_data_changes_and_filtered_events() throws Exception {
        try (MiloTestServer milo = MiloTestServer.start()) {
            new ApplicationContextRunner()
                    .withConfiguration(AutoConfigurations.of(OpcUaClientAutoConfiguration.class,
                            OpcUaListenerAutoConfiguration.class))
                    .withUserConfiguration(MiloListenerConfiguration.class)
                    .withPropertyValues("opcua.client.connections.milo.endpoint-url=" + milo.endpointUrl(),
                            "opcua.client.connections.milo.security-policy=None",
                            "opcua.client.connections.milo.security-mode=None",
                            "opcua.client.connections.milo.subscriptions.publishing-interval=100ms",
                            "opcua.client.connections.milo.subscriptions.sampling-interval=50ms")
                    .run(context -> {
                        MiloListener listener = context.getBean(MiloListener.class);
                        OpcUaListenerEndpointRegistry registry = context.getBean(OpcUaListenerEndpointRegistry.class);
                        awaitDelivery().until(() -> registry.listeners().stream().allMatch(OpcUaListenerInfo::created));
                        assertThat(registry.getListener("miloListener.onTrip").orElseThrow().problem())
                                .contains("element 0 of the where clause").contains("BadFilterOperatorUnsupported");
                        assertThat(registry.getListener("miloListener.onAlarm").orElseThrow().problem()).isNull();

                        milo.setSpeed(42.5);
                        awaitDelivery().until(() -> listener.speeds.contains(42.5f));

                        milo.fireEvent(200, "minor");
                        milo.fireEvent(900, "trip");
                        awaitDelivery().until(() -> !listener.alarms.isEmpty());
                        // the minor event was fired first, and the And item's events would come with the trip's:
                        // three publishing intervals more leave room for a Publish that split them
                        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
                            assertThat(listener.alarms).containsExactly("900 trip");
                            assertThat(listener.trips).as("Milo sends nothing through And").isEmpty();
                        });
                        assertThat(listener.allFields).singleElement().satisfies(fields -> assertThat(fields)
                                .hasSize(2));
                        assertThat(registry.errors()).isZero();
                    });
        }
    }

    static class MiloListener {

        final List<Float> speeds = new CopyOnWriteArrayList<>();
        final List<String> alarms = new CopyOnWriteArrayList<>();
        final List<List<Variant>> allFields = new CopyOnWriteArrayList<>();
        final List<Short> trips = new CopyOnWriteArrayList<>();

        @OpcUaSubscription(node = "nsu=" + MiloTestServer.NAMESPACE_URI + ";s=Speed")
        void onSpeed(float speed) {
            speeds.add(speed);
        }

        @OpcUaEventSubscription(connection = "milo", fields = {"Severity", "Message"},
                where = "Severity >= 500")
        void onAlarm(List<Variant> fields, short severity, LocalizedText message) {
            allFields.add(fields);
            alarms.add(severity + " " + message.text());
        }

        @OpcUaEventSubscription(connection = "milo", fields = {"Severity"}, where = "Severity >= 500 and Severity < 1000")
        void onTrip(short severity) {
            trips.add(severity);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class MiloListenerConfiguration {

        @Bean
        MiloListener miloListener() {
            return new MiloListener();
        }
    }
}
