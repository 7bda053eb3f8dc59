package dev.opcua.sample.server;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.Argument;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A production line in namespace {@code urn:dev.opcua:sample:line1}, under Objects: {@code Line1}
 * with a Speed an operator may write (0..10 parts per second), a Temperature and a PartCount that
 * follow the speed every second, and a method {@code ResetPartCount}.
 *
 * <p>Run with {@code mvn -B -q -pl sample-server-app exec:java} after an install; the port is 4840
 * unless {@code -Dopcua.port=N} says otherwise. Anonymous sessions over SecurityPolicy None, and over
 * Basic256Sha256, Aes128_Sha256_RsaOaep and Aes256_Sha256_RsaPss in Sign and SignAndEncrypt with the
 * PKI directory {@code ./pki} ({@code -Dopcua.pki=DIR}): the server certificate is created in
 * {@code own/} on first start; a client certificate seen for the first time is refused and copied to
 * {@code rejected/}, and moving it to {@code trusted/certs} lets the client in. Stops on Ctrl-C.
 */
public final class SampleServer {

    static final String NAMESPACE = "urn:dev.opcua:sample:line1";
    static final double MAX_SPEED = 10.0;

    private static EndpointSecurity secure(SecurityPolicy policy, MessageSecurityMode mode) {
        return new EndpointSecurity(policy, mode);
    }

    private SampleServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        int port = Integer.getInteger("opcua.port", 4840);
        PkiDirectory pki = new PkiDirectory(Path.of(System.getProperty("opcua.pki", "pki")));
        Line line = new Line();
        InMemoryNodeManager plant = InMemoryNodeManager.builder(NAMESPACE)
                .object("Line1")
                .variable("Line1.Speed", BuiltinType.Double, v -> v.value(Variant.ofDouble(line.speed))
                        .onWrite((context, value) -> line.setSpeed(value.doubleValue())))
                .variable("Line1.Temperature", BuiltinType.Double,
                        v -> v.valueSupplier(() -> Variant.ofDouble(line.temperature)))
                .variable("Line1.PartCount", BuiltinType.UInt32,
                        v -> v.valueSupplier(() -> Variant.ofUInt32(line.parts.get() & 0xFFFF_FFFFL)))
                .method("Line1.ResetPartCount", new Argument[0], new Argument[0], (context, inputs) -> {
                    line.parts.set(0);
                    return new Variant[0];
                })
                .build();
        OpcUaServer server = OpcUaServer.builder()
                .applicationUri("urn:dev.opcua:sample:server")
                .applicationName("dev.opcua sample plant")
                .port(port)
                .security(List.of(EndpointSecurity.NONE,
                        secure(SecurityPolicy.Basic256Sha256, MessageSecurityMode.Sign),
                        secure(SecurityPolicy.Basic256Sha256, MessageSecurityMode.SignAndEncrypt),
                        secure(SecurityPolicy.Aes128_Sha256_RsaOaep, MessageSecurityMode.SignAndEncrypt),
                        secure(SecurityPolicy.Aes256_Sha256_RsaPss, MessageSecurityMode.SignAndEncrypt)))
                .pki(pki)
                .nodeManager(plant)
                .build()
                .start();

        ScheduledExecutorService simulation = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sample-line-simulation");
            t.setDaemon(true);
            return t;
        });
        simulation.scheduleAtFixedRate(line::tick, 1, 1, TimeUnit.SECONDS);

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            simulation.shutdownNow();
            server.close();
            stopped.countDown();
        }, "sample-server-shutdown"));
        System.out.println("READY " + server.endpointUrl());
        stopped.await();
    }

    /** The simulated line: parts follow the speed, the temperature drifts with it. */
    static final class Line {
        final AtomicLong parts = new AtomicLong();
        volatile double speed = 1.2;
        volatile double temperature = 21.0;
        private long ticks;

        void setSpeed(double value) {
            if (value < 0 || value > MAX_SPEED) {
                throw new UaException(StatusCodes.BadOutOfRange, "Speed must be 0.." + MAX_SPEED + ", was " + value);
            }
            speed = value;
        }

        /** One second of production. */
        void tick() {
            ticks++;
            parts.addAndGet(Math.round(speed));
            temperature = 21.0 + speed * 2.5 + Math.sin(ticks / 10.0);
        }
    }
}
