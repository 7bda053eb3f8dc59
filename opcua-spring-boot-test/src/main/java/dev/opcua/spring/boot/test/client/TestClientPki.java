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
 * The test client's PKI, trusted both ways (Part 4, 6.1.3): a client certificate created in a temporary PKI
 * directory, added to the trust list of the server's PKI directory, and the server's certificate added to the
 * client's trust list. {@link #close()} takes the client certificate off the server's trust list again and deletes
 * the temporary directory, so that a PKI directory the application configured is left as it was.
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
     * PKI directory, and the server's certificate at the client.
     */
    static TestClientPki trustedBothWays(OpcUaServer server, String applicationUri, String applicationName) {
        PkiDirectory serverPki = server.config().pki();
        ApplicationCertificate serverCertificate = server.applicationCertificate();
        if (serverPki == null || serverCertificate == null) {
            throw new IllegalStateException("the test client asks for a secured channel, but the OPC UA server has no"
                    + " PKI directory (opcua.server.security.pki-dir), so it offers no secured endpoint and keeps no"
                    + " trust list: set opcua.server.security.pki-dir to a temporary directory, or let"
                    + " @AutoConfigureOpcUaTestClient give the server one");
        }
        TemporaryPkiDirectory directory = TemporaryPkiDirectory.create("opcua-test-client-pki-");
        PkiDirectory clientPki = new PkiDirectory(directory.path());
        ApplicationCertificate certificate = clientPki.loadOrCreateApplicationCertificate(applicationUri,
                applicationName, List.of("localhost"), KEY_SIZE, VALIDITY);
        clientPki.addCertificate(serverCertificate.certificate(), true);
        serverCertificate.issuers().forEach(issuer -> clientPki.addCertificate(issuer, false));
        serverPki.addCertificate(certificate.certificate(), true);
        return new TestClientPki(directory, serverPki, certificate);
    }

    /** The client's PKI directory: its certificate in own/, the server's in trusted/. */
    Path directory() {
        return directory.path();
    }

    ApplicationCertificate certificate() {
        return certificate;
    }

    @Override
    public void close() {
        try {
            serverPki.removeCertificate(Certificates.hex(certificate.thumbprint().unsafeBytes()), true);
        } catch (RuntimeException e) {
            log.warn("could not take the test client's certificate off the server's trust list in "
                    + serverPki.trustedCertsDir() + ": " + e.getMessage());
        }
        directory.close();
    }
}
