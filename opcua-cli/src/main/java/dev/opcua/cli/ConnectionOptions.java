package dev.opcua.cli;

import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.endpoint.ClientPki;
import dev.opcua.stack.client.session.ClientIdentity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.pki.CertificateLoader;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import java.io.Console;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The endpoint (the first argument of every command that talks to a server) and the connection options: the
 * options of {@link OpcUaClientConfig} a person needs at a shell.
 */
public final class ConnectionOptions {

    /** The application name of the CLI's certificate in a PKI directory ({@code own/certs/opcua-cli.der}). */
    public static final String APPLICATION_NAME = "opcua-cli";

    @Parameters(index = "0", paramLabel = "ENDPOINT",
            description = "The server's endpoint URL: opc.tcp://host:port[/path].")
    String endpoint;

    @Option(names = "--policy", paramLabel = "POLICY",
            description = "Security policy: ${COMPLETION-CANDIDATES}. Default: the most secure the server offers and "
                    + "this client can use (None without --pki or --certificate).")
    SecurityPolicy policy;

    @Option(names = "--mode", paramLabel = "MODE",
            description = "Message security mode: ${COMPLETION-CANDIDATES}. Default: the most secure with the policy.")
    MessageSecurityMode mode;

    @Option(names = {"-u", "--user"}, paramLabel = "NAME", description = "User name; anonymous without it.")
    String user;

    @Option(names = "--password", paramLabel = "PASSWORD",
            description = "The user's password (visible in the process list: prefer --password-file or the prompt).")
    String password;

    @Option(names = "--password-file", paramLabel = "FILE", description = "A file whose first line is the password.")
    Path passwordFile;

    @Option(names = "--certificate", paramLabel = "FILE",
            description = "This client's application instance certificate (PEM or DER), with --key.")
    Path certificate;

    @Option(names = "--key", paramLabel = "FILE", description = "The private key of --certificate (PEM).")
    Path key;

    @Option(names = "--pki", paramLabel = "DIR",
            description = "PKI directory (own/, trusted/, issuers/, rejected/): the client certificate is created in it "
                    + "on first use and server certificates are checked against trusted/.")
    Path pki;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "10s", converter = DurationConverter.class,
            description = "How long to wait for each answer: 10s, 500ms, 2m or PT10S (default ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(names = "--profile", paramLabel = "FILE",
            description = "A .properties or .yaml file with defaults for these options under their long names "
                    + "(policy, mode, user, password-file, pki, timeout, json ...); options given here win.")
    Path profile;

    /** The endpoint URL, checked: opc.tcp with a host. */
    public String endpoint() {
        URI uri;
        try {
            uri = new URI(endpoint);
        } catch (URISyntaxException e) {
            throw CliException.usage("'" + endpoint + "' is not an endpoint URL: expected opc.tcp://host:port[/path] ("
                    + e.getReason() + ")");
        }
        if (!"opc.tcp".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
            throw CliException.usage("'" + endpoint + "' is not an endpoint URL: expected opc.tcp://host:port[/path],"
                    + " e.g. opc.tcp://localhost:4840");
        }
        return endpoint;
    }

    /** The CLI's ApplicationUri, which its certificate names: {@code urn:<this host>:dev.opcua:opcua-cli}. */
    public static String applicationUri() {
        return "urn:" + ClientPki.localHostName() + ":dev.opcua:" + APPLICATION_NAME;
    }

    /** host:port of the endpoint, for messages. */
    public String hostAndPort() {
        URI uri = URI.create(endpoint());
        return uri.getHost() + ":" + (uri.getPort() < 0 ? 4840 : uri.getPort());
    }

    public Duration timeout() {
        return timeout;
    }

    public Path pki() {
        return pki;
    }

    /** The client configuration these options describe. */
    public OpcUaClientConfig config() {
        OpcUaClientConfig.Builder builder = OpcUaClientConfig.builder(endpoint())
                .applicationName(APPLICATION_NAME)
                .applicationUri(applicationUri())
                .productUri("urn:dev.opcua:" + APPLICATION_NAME)
                .requestTimeout(timeout)
                .security(policy, mode)
                .identity(identity())
                .pkiDir(pki);
        if (certificate != null || key != null) {
            if (certificate == null || key == null) {
                throw CliException.usage("--certificate and --key go together: the certificate file and its private "
                        + "key file");
            }
            try {
                builder.certificate(CertificateLoader.loadPem(certificate, key));
            } catch (RuntimeException e) {
                throw CliException.usage("--certificate " + certificate + " --key " + key + " cannot be used: "
                        + e.getMessage());
            }
        }
        return builder.build();
    }

    private ClientIdentity identity() {
        if (user == null) {
            if (password != null || passwordFile != null) {
                throw CliException.usage("a password without a user: add --user NAME");
            }
            return ClientIdentity.anonymous();
        }
        return ClientIdentity.userName(user, password());
    }

    private String password() {
        if (password != null) {
            return password;
        }
        if (passwordFile != null) {
            try {
                return Files.readAllLines(passwordFile, StandardCharsets.UTF_8).stream().findFirst().orElse("");
            } catch (IOException e) {
                throw CliException.usage("--password-file " + passwordFile + " cannot be read: " + e);
            }
        }
        Console console = System.console();
        if (console == null) {
            throw CliException.usage("--user " + user + " needs a password: --password, --password-file FILE, or "
                    + "run on a terminal to be asked");
        }
        char[] typed = console.readPassword("Password of %s: ", user);
        return typed == null ? "" : new String(typed);
    }

    /**
     * A connected client; the caller closes it.
     *
     * @throws CliException with exit code 2 and the reason in words when the connection fails
     */
    public OpcUaClient connect() {
        OpcUaClientConfig config = config();
        OpcUaClient client = OpcUaClient.create(config);
        // GetEndpoints, OpenSecureChannel, CreateSession, ActivateSession and the namespace table: a few round trips
        long waitMillis = timeout.toMillis() * 3 + 1000;
        try {
            client.connect().get(waitMillis, TimeUnit.MILLISECONDS);
            return client;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            client.close();
            throw new CliException(ExitCodes.CONNECTION, "interrupted while connecting to " + endpoint);
        } catch (TimeoutException e) {
            client.close();
            throw new CliException(ExitCodes.CONNECTION, "no OPC UA server answered at " + hostAndPort() + " within "
                    + Durations.format(Duration.ofMillis(waitMillis)) + ": is the port right, and is it an OPC UA "
                    + "endpoint (opc.tcp)?");
        } catch (ExecutionException e) {
            client.close();
            throw ConnectFailures.describe(e.getCause(), this);
        } catch (RuntimeException e) {
            client.close();
            throw ConnectFailures.describe(e, this);
        }
    }

    /** A failure to reach the server in words, as {@link #connect()} reports it (exit code 2). */
    public CliException describeFailure(Throwable failure) {
        return ConnectFailures.describe(failure, this);
    }

    /** The user name, for messages; null when anonymous. */
    String user() {
        return user;
    }
}
