package dev.opcua.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link CliTestServer} for every test class of the run that extends with this: started by the first, kept in
 * the root store of JUnit, which closes it (and deletes its PKI directory) when the run ends.
 */
final class SharedServer implements BeforeAllCallback {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SharedServer.class);
    private static volatile CliTestServer server;

    @Override
    public void beforeAll(ExtensionContext context) {
        server = context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent("server", key -> new Owned(),
                Owned.class).server;
    }

    /** The server of the run. */
    static CliTestServer get() {
        return server;
    }

    /** The server and its directory, closed by JUnit at the end of the run. */
    private static final class Owned implements ExtensionContext.Store.CloseableResource, AutoCloseable {

        private final Path pki;
        private final CliTestServer server;

        Owned() {
            try {
                pki = Files.createTempDirectory("opcua-cli-server-pki");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server = new CliTestServer(pki);
        }

        @Override
        public void close() throws IOException {
            server.close();
            try (Stream<Path> files = Files.walk(pki)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
