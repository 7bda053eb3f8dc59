package dev.opcua.spring.boot.autoconfigure.client.annotation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.autoconfigure.client.OpcUaClientAutoConfiguration;
import dev.opcua.spring.boot.client.annotation.OpcUaSubscription;
import dev.opcua.spring.boot.client.listener.OpcUaListenerContainer;
import dev.opcua.spring.boot.client.listener.OpcUaListenerEndpointRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code @OpcUaSubscription(durable = ...)}: the lifetime of a durable subscription (Part 4, 6.8) reaches
 * the endpoint, and listeners share a subscription only with the same durable lifetime.
 */
class DurableOpcUaSubscriptionTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaClientAutoConfiguration.class,
                    OpcUaListenerAutoConfiguration.class))
            .withPropertyValues("opcua.client.connections.plant.endpoint-url=opc.tcp://127.0.0.1:1/",
                    "opcua.client.connections.plant.security-policy=None",
                    "opcua.client.connections.plant.connect-on-start=false");

    @Test
    void durable_listeners_get_their_own_durable_subscription() {
        runner.withUserConfiguration(Beans.class).run(context -> {
            OpcUaListenerEndpointRegistry registry = context.getBean(OpcUaListenerEndpointRegistry.class);
            assertThat(registry.getListener("durableListeners.onSpeed").orElseThrow().endpoint().durable())
                    .isEqualTo(Duration.ofHours(2));
            assertThat(registry.getListener("durableListeners.onLevel").orElseThrow().endpoint().durable()).isNull();
            Map<Duration, Integer> listenersByDurable = registry.getContainers().stream().collect(Collectors.toMap(
                    c -> c.durable() == null ? Duration.ZERO : c.durable(), c -> c.listeners().size()));
            assertThat(listenersByDurable).containsOnly(Map.entry(Duration.ofHours(2), 2), Map.entry(Duration.ZERO, 1));
            assertThat(registry.getContainers()).extracting(OpcUaListenerContainer::publishingInterval).containsOnly(
                    registry.getContainers().get(0).publishingInterval());
        });
    }

    static class DurableListeners {

        @OpcUaSubscription(connection = "plant", node = "nsu=urn:acme;s=Line1.Speed", durable = "2h")
        void onSpeed(double speed) {
        }

        @OpcUaSubscription(connection = "plant", node = "nsu=urn:acme;s=Line1.Count", durable = "120m")
        void onCount(int count) {
        }

        @OpcUaSubscription(connection = "plant", node = "nsu=urn:acme;s=Line1.Level")
        void onLevel(double level) {
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Beans {

        @Bean
        DurableListeners durableListeners() {
            return new DurableListeners();
        }
    }
}
