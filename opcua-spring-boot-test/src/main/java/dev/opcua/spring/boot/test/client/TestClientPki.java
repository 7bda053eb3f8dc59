package dev.opcua.spring.boot.test.client;

import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.server.OpcUaServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The test client's PKI in a temporary directory (Part 4, 6.1.3): the server's certificate in the client's trust
 * list, so that the client accepts the server on a secured channel and encrypts a user's password for it (Part 4,
 * 7.41.4); for a secured channel also a client certificate, added to the trust list of the server's PKI directory.
 * {@link #close()} takes the client certificate off the server's trust list again and deletes the temporary
 * directory, so that a PKI directory the application configured is left as it was.
 */
final class TestClientPki implements AutoCloseable {

    private static final Log log = LogFactory.getLog(TestClientPki.class);
    private static final int KEY_SIZE = 2048;
    private static final Duration VALIDITY = Duration.ofDays(2);

    private final TemporaryPkiDirectory directory;
    private final PkiDirectory serverPki;
    private final ApplicationCertificate certificate;

    private TestClientPki(TemporaryPkiDirectory directory, PkiDirectory serverPki, ApplicationCertificate certificate) {
        this.directory = directory;
        this.serverPki = serverPki;
        this.certificate = certificate;
    }

    /**
     * Creates the client's certificate for {@code applicationUri} and trusts it at {@code server}, which must have a
     * PKI directory (see {@link #requireServerPki}), and the server's certificate at the client.
     */
    static TestClientPki trustedBothWays(OpcUaServer server, String applicationUri, String applicationName) {
        PkiDirectory serverPki = requireServerPki(server);
        TemporaryPkiDirectory directory = TemporaryPkiDirectory.create("opcua-test-client-pki-");
        PkiDirectory clientPki = trustServer(directory, server);
        ApplicationCertificate certificate = clientPki.loadOrCreateApplicationCertificate(applicationUri,
                applicationName, List.of("localhost"), KEY_SIZE, VALIDITY);
        serverPki.addCertificate(certificate.certificate(), true);
        return new TestClientPki(directory, serverPki, certificate);
    }

    /**
     * Trusts the server's certificate at the client only, for a user's password on a channel without security; the
     * server's trust list is left alone.
     */
    static TestClientPki trustingServer(OpcUaServer server) {
        TemporaryPkiDirectory directory = TemporaryPkiDirectory.create("opcua-test-client-pki-");
        trustServer(directory, server);
        return new TestClientPki(directory, null, null);
    }

    private static PkiDirectory trustServer(TemporaryPkiDirectory directory, OpcUaServer server) {
        PkiDirectory clientPki = new PkiDirectory(directory.path());
        ApplicationCertificate serverCertificate = server.applicationCertificate();
        clientPki.addCertificate(serverCertificate.certificate(), true);
        serverCertificate.issuers().forEach(issuer -> clientPki.addCertificate(issuer, false));
        return clientPki;
    }

    /** The server's PKI directory, which a secured test client needs for its trust list. */
    static PkiDirectory requireServerPki(OpcUaServer server) {
        PkiDirectory serverPki = server.config().pki();
        if (serverPki == null || server.applicationCertificate() == null) {
            throw new IllegalStateException("the test client asks for a secured channel, but the OPC UA server has no"
                    + " PKI directory (opcua.server.security.pki-dir), so it offers no secured endpoint and keeps no"
                    + " trust list: set opcua.server.security.pki-dir to a temporary directory, or let"
                    + " @AutoConfigureOpcUaTestClient give the server one");
        }
        return serverPki;
    }

    /** The client's PKI directory: its certificate in own/, the server's in trusted/. */
    Path directory() {
        return directory.path();
    }

    /** The client's certificate, trusted by the server; null when only the server's certificate is trusted. */
    ApplicationCertificate certificate() {
        return certificate;
    }

    @Override
    public void close() {
        if (serverPki == null) {
            directory.close();
            return;
        }
        try {
            serverPki.removeCertificate(Certificates.hex(certificate.thumbprint().unsafeBytes()), true);
        } catch (RuntimeException e) {
            log.warn("could not take the test client's certificate off the server's trust list in "
                    + serverPki.trustedCertsDir() + ": " + e.getMessage());
        }
        directory.close();
    }
}
