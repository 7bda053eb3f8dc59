package dev.opcua.spring.boot.actuate.testing;

import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/** Servers on 127.0.0.1 and a free port with a small plant, for the actuator tests. */
public final class TestServers {

    /** The namespace of {@link #plant()}. */
    public static final String NAMESPACE = "urn:test:actuate";

    private TestServers() {
    }

    /** A plant with {@code Speed} (1.5) and {@code Slow}, a value that takes 50 ms to read. */
    public static InMemoryNodeManager plant() {
        return InMemoryNodeManager.builder(NAMESPACE)
                .variable("Speed", BuiltinType.Double, v -> v.value(Variant.ofDouble(1.5)))
                .variable("Slow", BuiltinType.Double, v -> v.valueSupplier(() -> {
                    try {
                        Thread.sleep(50); // a slow device: keeps a worker busy
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return Variant.ofDouble(1.0);
                }))
                .build();
    }

    /** A builder for 127.0.0.1 on a free port, application URI {@code urn:test:actuate:server}, with the plant. */
    public static OpcUaServer.Builder builder(InMemoryNodeManager plant) {
        return OpcUaServer.builder()
                .applicationUri("urn:test:actuate:server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("127.0.0.1"))
                .nodeManager(plant);
    }

    /** A started server, configured further by {@code configuration}. */
    public static OpcUaServer started(InMemoryNodeManager plant, Consumer<OpcUaServer.Builder> configuration) {
        OpcUaServer.Builder builder = builder(plant);
        configuration.accept(builder);
        return builder.build().start();
    }

    /** Waits up to 10 s, polling every 10 ms, for a condition that another thread makes true. */
    public static void waitUntil(BooleanSupplier condition) {
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).until(condition::getAsBoolean);
    }
}
