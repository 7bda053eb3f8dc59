package dev.opcua.spring.boot.client.annotation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.spring.boot.autoconfigure.client.OpcUaClientAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.client.annotation.OpcUaListenerAutoConfiguration;
import dev.opcua.spring.boot.client.listener.OpcUaListener;
import dev.opcua.spring.boot.client.listener.OpcUaListenerEndpointRegistry;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.subscriptions.events.EventNotifierRegistry;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Annotated listeners of an auto-configured client receive data changes and events from our own
 * server, keep receiving after they throw, and again after the server restarted on the same port or
 * came up only after the application.
 */
class OpcUaListenerEndToEndIT {

    static final String NAMESPACE = "urn:test:listeners";

    private final AtomicReference<Variant> speed = new AtomicReference<>(Variant.ofDouble(0));
    private final AtomicReference<Variant> state = new AtomicReference<>(Variant.ofString("Idle"));
    private OpcUaServer server;

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private OpcUaServer startServer(int port) {
        InMemoryNodeManager plant = InMemoryNodeManager.builder(NAMESPACE)
                .variable("Speed", BuiltinType.Double, v -> v.valueSupplier(speed::get))
                .variable("State", BuiltinType.String, v -> v.valueSupplier(state::get))
                .build();
        server = OpcUaServer.builder()
                .applicationUri("urn:test:listeners:server")
                .bindAddress("127.0.0.1")
                .port(port)
                .hostnames(List.of("127.0.0.1"))
                .nodeManager(plant)
                .build()
                .start();
        return server;
    }

    private ApplicationContextRunner runner(int port) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OpcUaClientAutoConfiguration.class,
                        OpcUaListenerAutoConfiguration.class))
                .withUserConfiguration(ListenerConfiguration.class)
                .withPropertyValues("opcua.client.connections.plant.endpoint-url=opc.tcp://127.0.0.1:" + port + "/",
                        "opcua.client.connections.plant.security-policy=None",
                        "opcua.client.connections.plant.security-mode=None",
                        "opcua.client.connections.plant.request-timeout=3s",
                        "opcua.client.connections.plant.reconnect.initial-delay=100ms",
                        "opcua.client.connections.plant.reconnect.max-delay=500ms",
                        "opcua.client.connections.plant.subscriptions.publishing-interval=100ms",
                        "opcua.client.connections.plant.subscriptions.sampling-interval=20ms");
    }

    @Test
    void annotated_methods_receive_data_changes_and_filtered_events() {
        startServer(0);
        runner(server.port()).run(context -> {
            PlantListener listener = context.getBean(PlantListener.class);
            speed.set(Variant.ofDouble(12.5));
            awaitDelivery().until(() -> listener.speeds.contains(12.5));
            assertThat(listener.raw).isNotEmpty().allSatisfy(v -> assertThat(v.statusCode().isGood()).isTrue());
            OpcUaListener speedListener = context.getBean(OpcUaListenerEndpointRegistry.class)
                    .getListener("plantListener.onSpeed").orElseThrow();
            assertThat(speedListener.isCreated()).isTrue();
            assertThat(speedListener.info().status()).isEqualTo("Good");
            assertThat(speedListener.notifications()).isPositive();

            awaitDelivery().until(() -> context.getBean(OpcUaListenerEndpointRegistry.class)
                    .getListener("plantListener.onAlarm").orElseThrow().isCreated());
            server.events().report(EventNotifierRegistry.SERVER_OBJECT, event(100, "minor"));
            server.events().report(EventNotifierRegistry.SERVER_OBJECT, event(800, "trip"));
            awaitDelivery().until(() -> !listener.alarms.isEmpty());
            // the minor event was reported first: had the filter let it through it would have come before the
            // trip, or with it; three publishing intervals more leave room for a Publish that split them
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5))
                    .untilAsserted(() -> assertThat(listener.alarms).containsExactly("800 trip")); // Severity > 500
            assertThat(listener.alarmTimes).singleElement().satisfies(t -> assertThat(t).isBefore(Instant.now()
                    .plusSeconds(1)));
        });
    }

    @Test
    void a_listener_that_throws_or_cannot_take_a_value_keeps_receiving_later_values() {
        startServer(0);
        runner(server.port()).run(context -> {
            PlantListener listener = context.getBean(PlantListener.class);
            OpcUaListenerEndpointRegistry registry = context.getBean(OpcUaListenerEndpointRegistry.class);
            speed.set(Variant.ofDouble(-1)); // onSpeed throws on negative values
            awaitDelivery().until(() -> registry.getListener("plantListener.onSpeed").orElseThrow().errors() > 0);
            speed.set(Variant.ofDouble(3));
            awaitDelivery().until(() -> listener.speeds.contains(3.0));

            state.set(Variant.ofDouble(1.5)); // not a String: the delivery fails, the item stays
            awaitDelivery().until(() -> registry.getListener("plantListener.onState").orElseThrow().errors() > 0);
            state.set(Variant.ofString("Running"));
            awaitDelivery().until(() -> listener.states.contains("Running"));
            assertThat(registry.errors()).isGreaterThanOrEqualTo(2);
        });
    }

    @Test
    void listeners_receive_again_after_the_server_restarted_on_the_same_port() {
        startServer(0);
        int port = server.port();
        runner(port).run(context -> {
            PlantListener listener = context.getBean(PlantListener.class);
            speed.set(Variant.ofDouble(1));
            awaitDelivery().until(() -> listener.speeds.contains(1.0));

            server.close();
            speed.set(Variant.ofDouble(2));
            startServer(port);
            awaitDelivery().until(() -> listener.speeds.contains(2.0));
            assertThat(context.getBean(OpcUaListenerEndpointRegistry.class).getListener("plantListener.onSpeed")
                    .orElseThrow().isCreated()).isTrue();
        });
    }

    @Test
    void start_up_does_not_wait_for_a_server_that_is_down_and_listeners_start_when_it_comes() throws IOException {
        int port = freePort();
        runner(port).run(context -> {
            assertThat(context).hasNotFailed();
            OpcUaListenerEndpointRegistry registry = context.getBean(OpcUaListenerEndpointRegistry.class);
            assertThat(registry.isRunning()).isTrue();
            assertThat(registry.getListener("plantListener.onSpeed").orElseThrow().isCreated()).isFalse();

            speed.set(Variant.ofDouble(7));
            startServer(port);
            awaitDelivery().until(() -> context.getBean(PlantListener.class).speeds.contains(7.0));
        });
    }

    private static UaEvent event(int severity, String message) {
        return UaEvent.builder(NodeId.ns0(NodeIds.BaseEventType))
                .sourceNode(EventNotifierRegistry.SERVER_OBJECT)
                .sourceName("Server")
                .message(message)
                .severity(severity)
                .build();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** A wait for a delivery: up to 15 s, as a reconnect with backoff takes a few. */
    static ConditionFactory awaitDelivery() {
        return await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(20));
    }

    static class PlantListener {

        final List<Double> speeds = new CopyOnWriteArrayList<>();
        final List<DataValue> raw = new CopyOnWriteArrayList<>();
        final List<String> states = new CopyOnWriteArrayList<>();
        final List<String> alarms = new CopyOnWriteArrayList<>();
        final List<Instant> alarmTimes = new CopyOnWriteArrayList<>();

        @OpcUaSubscription(connection = "plant", node = "nsu=" + NAMESPACE + ";s=Speed")
        void onSpeed(double speed, DataValue value) {
            if (speed < 0) {
                throw new IllegalStateException("negative speed " + speed);
            }
            speeds.add(speed);
            raw.add(value);
        }

        @OpcUaSubscription(node = "nsu=" + NAMESPACE + ";s=State", samplingInterval = "50ms")
        void onState(String state) {
            states.add(state);
        }

        @OpcUaEventSubscription(connection = "plant", fields = {"Severity", "Message", "Time"},
                where = "Severity > 500 and SourceName = 'Server'")
        void onAlarm(int severity, LocalizedText message, Instant time) {
            alarms.add(severity + " " + message.text());
            alarmTimes.add(time);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ListenerConfiguration {

        @Bean
        PlantListener plantListener() {
            return new PlantListener();
        }
    }
}
