package dev.opcua.stack.client.testing;

import dev.opcua.stack.client.session.TestCertificates;
import dev.opcua.stack.client.transport.ClientResources;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The fixture of a client test class against Eclipse Milo: starts a {@link MiloPeerServer} and the
 * client's {@link ClientResources} before the class's first test and closes both after its last
 * (the resources even when closing the server fails), optionally failing the class on ByteBuf leaks
 * ({@link LeakWatch}). Register it as a static field; it runs before the class's own
 * {@code @BeforeAll} methods, which may use it.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final MiloPeer PEER = MiloPeer.server(b -> b.manyVariables(0)).resources(r -> r.completeOnCallbackThreads())
 *         .watchingLeaks();
 * }</pre>
 */
public final class MiloPeer implements BeforeAllCallback, AfterAllCallback {

    /** Configures the server's builder; may throw (loading certificates, for example). */
    @FunctionalInterface
    public interface ServerSetup {
        MiloPeerServer.Builder configure(MiloPeerServer.Builder builder) throws Exception;
    }

    private final ServerSetup serverSetup;
    private UnaryOperator<ClientResources.Builder> resourcesSetup = UnaryOperator.identity();
    private boolean watchLeaks;
    private MiloPeerServer server;
    private ClientResources resources;

    private MiloPeer(ServerSetup serverSetup) {
        this.serverSetup = Objects.requireNonNull(serverSetup, "serverSetup");
    }

    /** A peer with Milo's defaults of {@link MiloPeerServer#builder()} and one client I/O thread. */
    public static MiloPeer server() {
        return new MiloPeer(b -> b);
    }

    /** A peer whose server is configured by {@code setup}. */
    public static MiloPeer server(ServerSetup setup) {
        return new MiloPeer(setup);
    }

    /**
     * A peer with the interop certificates of {@link TestCertificates}: its own {@code milo-server}, trusting
     * the client certificate {@code interop-client} and accepting {@code interop-user} as an X.509 user; then
     * configured by {@code more}.
     */
    public static MiloPeer serverWithInteropCertificates(ServerSetup more) {
        return new MiloPeer(b -> more.configure(b
                .certificate(TestCertificates.applicationUri("milo-server"), TestCertificates.get("milo-server"))
                .trustedClients(List.of(TestCertificates.get("interop-client").certificate()))
                .x509User(TestCertificates.get("interop-user").certificate())));
    }

    /** Configures the client's resources, from a builder with one I/O thread. */
    public MiloPeer resources(UnaryOperator<ClientResources.Builder> setup) {
        this.resourcesSetup = Objects.requireNonNull(setup, "setup");
        return this;
    }

    /** Fails the class when a ByteBuf leaked in it, the peer's included. */
    public MiloPeer watchingLeaks() {
        this.watchLeaks = true;
        return this;
    }

    /** The running peer server. */
    public MiloPeerServer milo() {
        return Objects.requireNonNull(server, "the peer starts before the class's first test");
    }

    /** The client's shared resources. */
    public ClientResources clientResources() {
        return Objects.requireNonNull(resources, "the peer starts before the class's first test");
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        if (watchLeaks) {
            LeakWatch.install();
        }
        server = serverSetup.configure(MiloPeerServer.builder()).start();
        resources = resourcesSetup.apply(ClientResources.builder().ioThreads(1)).build();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            if (resources != null) {
                resources.close();
            }
            server = null;
            resources = null;
        }
        if (watchLeaks) {
            LeakWatch.assertNoLeaks();
        }
    }
}
