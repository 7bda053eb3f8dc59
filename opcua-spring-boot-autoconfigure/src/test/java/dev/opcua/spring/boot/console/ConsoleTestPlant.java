package dev.opcua.spring.boot.console;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small plant below Objects for the console's tests: {@code Line} with {@code Speed} (1.5, read-only), a
 * {@code Counter} that counts its reads and a writable {@code SetPoint} (Double, 100.0).
 */
final class ConsoleTestPlant {

    static final String NAMESPACE = "urn:test:console";

    /** The properties of a server on 127.0.0.1 and a free port, the console on. */
    static final String[] PROPERTIES = { "opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
        "opcua.server.hostnames=127.0.0.1", "opcua.server.application-uri=urn:test:console:server",
        "opcua.console.enabled=true" };

    private ConsoleTestPlant() {
    }

    static InMemoryNodeManager plant() {
        AtomicInteger reads = new AtomicInteger();
        return InMemoryNodeManager.builder(NAMESPACE)
                .object("Line")
                .variable("Line.Speed", BuiltinType.Double, v -> v.value(Variant.ofDouble(1.5)))
                .variable("Line.Counter", BuiltinType.Int32, v -> v.valueSupplier(() -> Variant.ofInt32(reads.incrementAndGet())))
                .variable("Line.SetPoint", BuiltinType.Double, v -> v.value(Variant.ofDouble(100.0)).writable())
                .build();
    }
}
