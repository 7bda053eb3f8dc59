package dev.opcua.cli.commands;

import dev.opcua.cli.CliException;
import dev.opcua.cli.ClientCommand;
import dev.opcua.cli.ConnectionOptions;
import dev.opcua.cli.ExitCodes;
import dev.opcua.cli.JsonLine;
import dev.opcua.cli.Output;
import dev.opcua.cli.OutputOptions;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.certificates.ServerCertificateManager;
import dev.opcua.stack.client.endpoint.ClientPki;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.pki.CertificateLoader;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Certificates (Part 12): this client's own in a PKI directory ({@code create}), trusting a server's
 * ({@code trust}), what was rejected ({@code rejected}), and a server's through its push management
 * ({@code push}: UpdateCertificate, the trust list, GetRejectedList; Part 12, 7.10).
 */
@Command(name = "cert", description = "Certificates: create this client's, trust a server's, list the rejected ones, "
        + "push to a server with push management.",
        subcommands = {CertCommand.Create.class, CertCommand.Trust.class, CertCommand.Rejected.class,
            CertCommand.Push.class})
public final class CertCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                "a cert command is required: create, trust, rejected or push");
    }

    /** A cert command on the local PKI directory: its {@code --pki}, the output options, and its output. */
    abstract static class LocalCertCommand implements Callable<Integer> {

        @Option(names = "--pki", paramLabel = "DIR", required = true,
                description = "The PKI directory (own/, trusted/, issuers/, rejected/).")
        Path pki;

        @Mixin
        OutputOptions outputOptions;

        @Spec
        CommandSpec spec;

        @Override
        public final Integer call() throws IOException {
            return run(outputOptions.output(spec), new PkiDirectory(pki));
        }

        abstract int run(Output output, PkiDirectory directory) throws IOException;
    }

    /** Creates the CLI's application instance certificate in a PKI directory (Part 12, 6.2.2). */
    @Command(name = "create", description = "Create this client's application instance certificate in the PKI "
            + "directory (own/certs/opcua-cli.der, own/private/opcua-cli.pem); an existing one is kept.")
    static final class Create extends LocalCertCommand {

        @Option(names = "--hostname", paramLabel = "NAME", description = "Host names the certificate names "
                + "(default: this host's).")
        List<String> hostnames;

        @Option(names = "--key-size", paramLabel = "BITS", defaultValue = "2048",
                description = "RSA key size (default ${DEFAULT-VALUE}).")
        int keySize;

        @Option(names = "--days", paramLabel = "N", defaultValue = "1826",
                description = "Days the certificate is valid (default ${DEFAULT-VALUE}).")
        int days;

        @Override
        int run(Output output, PkiDirectory directory) {
            Path file = directory.ownCertsDir().resolve(ConnectionOptions.APPLICATION_NAME + ".der");
            boolean existed = Files.exists(file);
            List<String> hosts = hostnames == null ? List.of(ClientPki.localHostName()) : hostnames;
            ApplicationCertificate certificate = directory.loadOrCreateApplicationCertificate(
                    ConnectionOptions.applicationUri(), ConnectionOptions.APPLICATION_NAME, hosts, keySize,
                    Duration.ofDays(days));
            describe(output, existed ? "exists" : "created", file, certificate.certificate());
            return ExitCodes.OK;
        }
    }

    /** Trusts certificates: copies them into trusted/certs, and takes them out of rejected/ when they were there. */
    @Command(name = "trust", description = "Trust certificate files (DER or PEM): copied to trusted/certs; a file from"
            + " rejected/ is moved.")
    static final class Trust extends LocalCertCommand {

        @Parameters(arity = "1..*", paramLabel = "FILE", description = "Certificate files.")
        List<Path> files;

        @Override
        int run(Output output, PkiDirectory directory) throws IOException {
            for (Path file : files) {
                List<X509Certificate> certificates = read(file);
                for (X509Certificate certificate : certificates) {
                    describe(output, "trusted", directory.addCertificate(certificate, true), certificate);
                }
                if (file.toAbsolutePath().normalize().getParent()
                        .equals(directory.rejectedDir().toAbsolutePath().normalize())) {
                    Files.delete(file);
                }
            }
            return ExitCodes.OK;
        }
    }

    /** Lists rejected/: the certificates of servers this client did not trust. */
    @Command(name = "rejected", description = "List the certificates in rejected/: servers this client did not trust.")
    static final class Rejected extends LocalCertCommand {

        @Override
        int run(Output output, PkiDirectory directory) throws IOException {
            Path dir = directory.rejectedDir();
            List<Path> files = new ArrayList<>();
            if (Files.isDirectory(dir)) {
                try (Stream<Path> list = Files.list(dir)) {
                    list.filter(Files::isRegularFile).sorted().forEach(files::add);
                }
            }
            for (Path file : files) {
                for (X509Certificate certificate : read(file)) {
                    describe(output, "rejected", file, certificate);
                }
            }
            if (files.isEmpty() && !output.json()) {
                output.note("no rejected certificates in " + dir);
            }
            return ExitCodes.OK;
        }
    }

    /**
     * Push management of a server (Part 12, 7.10): its certificate replaced (UpdateCertificate, then ApplyChanges
     * when it asks for it), certificates added to its trust list (AddCertificate, 7.8.2.6), its rejected list
     * (GetRejectedList, 7.10.12). Needs a user with the SecurityAdmin role, usually over an encrypted channel.
     */
    @Command(name = "push", description = "Push management of a server (needs a SecurityAdmin user, usually over "
            + "SignAndEncrypt): replace its certificate, add to its trust list, show what it rejected.")
    static final class Push extends ClientCommand {

        @Option(names = "--server-certificate", paramLabel = "FILE",
                description = "The server's new certificate (DER or PEM), for its current or pending key.")
        Path serverCertificate;

        @Option(names = "--server-key", paramLabel = "FILE",
                description = "The private key of --server-certificate (PEM), when it was made elsewhere.")
        Path serverKey;

        @Option(names = "--issuer", paramLabel = "FILE", description = "CA certificates of --server-certificate.")
        List<Path> issuers;

        @Option(names = "--add-trusted", paramLabel = "FILE", description = "Certificates to add to the server's "
                + "trust list.")
        List<Path> addTrusted;

        @Option(names = "--show-rejected", description = "List the certificates the server rejected.")
        boolean showRejected;

        @Override
        protected void prepare() {
            if (serverCertificate == null && addTrusted == null && !showRejected) {
                throw CliException.usage("nothing to push: give --server-certificate FILE, --add-trusted FILE or "
                        + "--show-rejected");
            }
            if (serverKey != null && serverCertificate == null) {
                throw CliException.usage("--server-key needs --server-certificate");
            }
        }

        @Override
        protected int run(OpcUaClient client, Output output) throws Exception {
            ServerCertificateManager manager = new ServerCertificateManager(client);
            long wait = connection.timeout().toMillis() * 2;
            if (addTrusted != null) {
                for (Path file : addTrusted) {
                    for (X509Certificate certificate : read(file)) {
                        manager.addCertificate(der(certificate)).get(wait, TimeUnit.MILLISECONDS);
                        describe(output, "added to the server's trust list", file, certificate);
                    }
                }
            }
            if (serverCertificate != null) {
                X509Certificate certificate = read(serverCertificate).get(0);
                List<byte[]> issuerDer = new ArrayList<>();
                for (Path issuer : issuers == null ? List.<Path>of() : issuers) {
                    for (X509Certificate c : read(issuer)) {
                        issuerDer.add(der(c));
                    }
                }
                byte[] key = serverKey == null ? null : Files.readAllBytes(serverKey);
                boolean apply = manager.updateCertificate(der(certificate), issuerDer, key == null ? null : "PEM", key)
                        .get(wait, TimeUnit.MILLISECONDS);
                if (apply) {
                    manager.applyChanges().get(wait, TimeUnit.MILLISECONDS);
                }
                describe(output, apply ? "the server's certificate, applied" : "the server's certificate",
                        serverCertificate, certificate);
            }
            if (showRejected) {
                for (byte[] der : manager.getRejectedList().get(wait, TimeUnit.MILLISECONDS)) {
                    describe(output, "rejected by the server", null, parse(der));
                }
            }
            return ExitCodes.OK;
        }
    }

    static List<X509Certificate> read(Path file) {
        try {
            List<X509Certificate> certificates = CertificateLoader.readCertificates(file);
            if (certificates.isEmpty()) {
                throw CliException.usage(file + " holds no certificate");
            }
            return certificates;
        } catch (RuntimeException e) {
            if (e instanceof CliException cli) {
                throw cli;
            }
            throw CliException.usage(file + " is not a certificate file (DER or PEM): " + e.getMessage());
        }
    }

    private static X509Certificate parse(byte[] der) throws Exception {
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(der));
    }

    private static byte[] der(X509Certificate certificate) {
        try {
            return certificate.getEncoded();
        } catch (CertificateEncodingException e) {
            throw new IllegalStateException(e);
        }
    }

    static String thumbprint(X509Certificate certificate) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(der(certificate)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static void describe(Output output, String what, Path file, X509Certificate certificate) {
        String subject = certificate.getSubjectX500Principal().getName();
        if (output.json()) {
            JsonLine line = new JsonLine(null).string("result", what).string("subject", subject)
                    .string("thumbprint", thumbprint(certificate))
                    .string("notAfter", certificate.getNotAfter().toInstant().toString());
            if (file != null) {
                line.string("file", file.toString());
            }
            output.json(line);
            return;
        }
        output.line(output.bold(what) + ": " + subject + "  " + output.dim("SHA-1 " + thumbprint(certificate)
                + ", valid until " + certificate.getNotAfter().toInstant()) + (file == null ? "" : "  " + file));
    }
}
