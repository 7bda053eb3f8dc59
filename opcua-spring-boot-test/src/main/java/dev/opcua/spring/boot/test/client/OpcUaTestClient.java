package dev.opcua.spring.boot.test.client;

import dev.opcua.spring.boot.server.OpcUaServerLifecycle;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.session.ClientIdentity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.structured.BrowseResult;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.server.OpcUaServer;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;

/**
 * An OPC UA client of the application's own server, for tests: it connects once the server has bound its port
 * (a {@link SmartLifecycle} of the phase after {@link OpcUaServerLifecycle#DEFAULT_PHASE}, so that it starts after
 * the server and stops before it), anonymously or as a user, over SecurityPolicy None or, with a policy and mode,
 * over a secure channel whose certificates it makes trusted both ways in a temporary PKI (Part 4, 6.1.3); a user's
 * password over SecurityPolicy None is encrypted with the server's certificate, which it trusts then too. It
 * connects to {@code localhost} (or the server's bind address when that is not a wildcard) on the bound port.
 *
 * <p>{@link #client()} is the connected {@link OpcUaClient}; the blocking helpers take node ids as text
 * ({@code nsu=urn:acme:line1;s=Speed}, {@code ns=2;i=5}, {@code i=2253}) for short tests. Outside a Spring context
 * (an {@code ApplicationContextRunner} without the test support's auto-configuration, a plain unit test) build one
 * with {@link #builder(OpcUaServer)} and close it in a try-with-resources block.
 */
public final class OpcUaTestClient implements SmartLifecycle, AutoCloseable {

    /** Starts right after the server, stops right before it. */
    public static final int PHASE = OpcUaServerLifecycle.DEFAULT_PHASE + 1;

    /** The application URI of the test client and of its certificate. */
    public static final String APPLICATION_URI = "urn:dev.opcua:spring-boot-test:client";

    private static final Log log = LogFactory.getLog(OpcUaTestClient.class);
    private static final String APPLICATION_NAME = "OPC UA test client";

    private final OpcUaServer server;
    private final SecurityPolicy securityPolicy;
    private final MessageSecurityMode securityMode;
    private final String username;
    private final String password;
    private final Duration requestTimeout;

    private volatile OpcUaClient client;
    private volatile TestClientPki pki;

    private OpcUaTestClient(Builder builder) {
        this.server = builder.server;
        this.securityPolicy = builder.securityPolicy;
        this.securityMode = builder.securityMode;
        this.username = builder.username;
        this.password = builder.password;
        this.requestTimeout = builder.requestTimeout;
    }

    /** A builder of a test client of {@code server}: anonymous, SecurityPolicy None, requests time out after 10 s. */
    public static Builder builder(OpcUaServer server) {
        return new Builder(server);
    }

    /**
     * Connects to the server, which must be running.
     *
     * @throws IllegalStateException when the server does not run, offers no endpoint of the requested security, or
     *         the connection fails (naming the endpoint, security and user, with the cause)
     */
    @Override
    public synchronized void start() {
        if (client != null) {
            return;
        }
        if (!server.isRunning()) {
            throw new IllegalStateException("the OPC UA test client connects to a running server, but the server "
                    + server.config().applicationUri() + " does not run");
        }
        String endpointUrl = endpointUrl();
        boolean secured = securityMode != MessageSecurityMode.None;
        if (secured) {
            TestClientPki.requireServerPki(server);
        }
        checkOffered();
        OpcUaClientConfig.Builder config = OpcUaClientConfig.builder(endpointUrl)
                .security(securityPolicy, securityMode)
                .applicationUri(APPLICATION_URI)
                .applicationName(APPLICATION_NAME)
                .sessionName(APPLICATION_NAME + (username == null ? "" : " (" + username + ")"))
                .requestTimeout(requestTimeout)
                .identity(username == null ? ClientIdentity.anonymous() : ClientIdentity.userName(username, password));
        TestClientPki trusted = null;
        if (secured) {
            trusted = TestClientPki.trustedBothWays(server, APPLICATION_URI, APPLICATION_NAME);
            config.pkiDir(trusted.directory()).certificate(trusted.certificate());
        } else if (username != null && server.applicationCertificate() != null) {
            trusted = TestClientPki.trustingServer(server);
            config.pkiDir(trusted.directory());
        }
        OpcUaClient connecting = OpcUaClient.create(config.build());
        try {
            connecting.connect().get(requestTimeout.toMillis() * 2 + 1_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abandon(connecting, trusted);
            throw new IllegalStateException("interrupted while the OPC UA test client connected to " + endpointUrl, e);
        } catch (ExecutionException | TimeoutException e) {
            abandon(connecting, trusted);
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new IllegalStateException("the OPC UA test client could not connect to " + endpointUrl + " with "
                    + describeSecurity() + " as " + describeUser() + ": " + cause.getMessage(), cause);
        }
        pki = trusted;
        client = connecting;
        log.info("OPC UA test client connected to " + endpointUrl + " with " + describeSecurity() + " as "
                + describeUser());
    }

    private static void abandon(OpcUaClient connecting, TestClientPki trusted) {
        connecting.close();
        if (trusted != null) {
            trusted.close();
        }
    }

    /** Fails early, naming what the server offers, when it has no endpoint of the security asked for. */
    private void checkOffered() {
        List<EndpointDescription> endpoints = server.endpoints();
        boolean offered = endpoints.stream().anyMatch(e -> e.securityMode() == securityMode
                && securityPolicy.uri().equals(e.securityPolicyUri()));
        if (!offered) {
            String offers = endpoints.stream()
                    .map(e -> SecurityPolicy.fromUri(e.securityPolicyUri()) + "/" + e.securityMode())
                    .distinct().collect(Collectors.joining(", "));
            throw new IllegalStateException("the OPC UA test client asks for " + describeSecurity() + ", but the server "
                    + "offers only " + offers + " (opcua.server.security.policies and opcua.server.security.modes)");
        }
    }

    private String describeSecurity() {
        return securityPolicy + "/" + securityMode;
    }

    private String describeUser() {
        return username == null ? "anonymous" : "user '" + username + "'";
    }

    /** Disconnects, takes the test client's certificate off the server's trust list and deletes its PKI. */
    @Override
    public synchronized void stop() {
        OpcUaClient connected = client;
        client = null;
        if (connected != null) {
            connected.close();
            log.info("OPC UA test client disconnected from " + connected.config().endpointUrl());
        }
        TestClientPki trusted = pki;
        pki = null;
        if (trusted != null) {
            trusted.close();
        }
    }

    @Override
    public void close() {
        stop();
    }

    @Override
    public boolean isRunning() {
        return client != null;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /**
     * The connected client.
     *
     * @throws IllegalStateException before the test client has connected (it connects when the context starts,
     *         after the server) or after it was closed
     */
    public OpcUaClient client() {
        OpcUaClient connected = client;
        if (connected == null) {
            throw new IllegalStateException("the OPC UA test client is not connected: it connects once the"
                    + " application's OPC UA server has started (with the context) and disconnects when it closes");
        }
        return connected;
    }

    /** The endpoint URL the test client connects to: the bound port of the server. */
    public String endpointUrl() {
        String bind = server.config().bindAddress();
        String host = bind == null || bind.equals("0.0.0.0") || bind.equals("::") ? "localhost" : bind;
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        return "opc.tcp://" + host + ":" + server.port() + server.config().path();
    }

    /** The server the test client connects to. */
    public OpcUaServer server() {
        return server;
    }

    /**
     * A node id from text, {@code nsu=} namespace URIs resolved through the server's NamespaceArray.
     *
     * @throws IllegalArgumentException naming the text and the forms expected when it is not a node id
     */
    public NodeId nodeId(String text) {
        return client().nodeId(text);
    }

    /** Reads the Value attribute of the node {@code nodeId} (text as in {@link #nodeId}), waiting for the answer. */
    public DataValue readValue(String nodeId) {
        return client().blocking().readValue(nodeId(nodeId));
    }

    /** Writes {@code value} to the Value attribute of the node {@code nodeId}, waiting for the status. */
    public StatusCode writeValue(String nodeId, Object value) {
        return client().blocking().writeValue(nodeId(nodeId), value);
    }

    /**
     * Browses the node {@code nodeId} forward along hierarchical references, all pages, waiting for the result
     * (Part 4, 5.9.2).
     */
    public BrowseResult browse(String nodeId) {
        OpcUaClient connected = client();
        return await(connected.browse(OpcUaClient.hierarchical(nodeId(nodeId))), "Browse " + nodeId);
    }

    /** Calls the method {@code methodId} of the object {@code objectId} with {@code inputs}, waiting for its outputs. */
    public Variant[] call(String objectId, String methodId, Object... inputs) {
        return client().blocking().call(nodeId(objectId), nodeId(methodId), inputs);
    }

    private <T> T await(CompletableFuture<T> future, String what) {
        try {
            return future.get(requestTimeout.toMillis() * 2 + 1_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + what, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(what + " failed: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException(what + " got no answer in time", e);
        }
    }

    @Override
    public String toString() {
        return "OpcUaTestClient[" + describeSecurity() + ", " + describeUser() + (client == null ? "" : ", connected")
                + "]";
    }

    /** Builds an {@link OpcUaTestClient}; {@link #build()} checks the options and names a wrong one. */
    public static final class Builder {

        private final OpcUaServer server;
        private SecurityPolicy securityPolicy = SecurityPolicy.None;
        private MessageSecurityMode securityMode = MessageSecurityMode.None;
        private String username;
        private String password;
        private Duration requestTimeout = Duration.ofSeconds(10);

        private Builder(OpcUaServer server) {
            this.server = Objects.requireNonNull(server, "server");
        }

        /** Activates the session as {@code username} with {@code password}; null for anonymous (the default). */
        public Builder user(String username, String password) {
            this.username = username == null || username.isEmpty() ? null : username;
            this.password = password;
            return this;
        }

        /**
         * The endpoint's security: None/None (the default), or a policy with Sign or SignAndEncrypt, for which the
         * test client creates its certificate and trusts it at the server, which needs a PKI directory.
         */
        public Builder security(SecurityPolicy policy, MessageSecurityMode mode) {
            this.securityPolicy = Objects.requireNonNull(policy, "policy");
            this.securityMode = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /** How long a request may take; default 10 s. */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = Objects.requireNonNull(timeout, "requestTimeout");
            return this;
        }

        /**
         * A test client, not yet connected: call {@link OpcUaTestClient#start()}, or register it as a bean.
         *
         * @throws IllegalArgumentException when the security policy and mode do not go together, a user has no
         *         password, or the request timeout is not positive
         */
        public OpcUaTestClient build() {
            if (securityMode == MessageSecurityMode.Invalid) {
                throw new IllegalArgumentException("security mode Invalid: None, Sign or SignAndEncrypt");
            }
            boolean none = securityPolicy == SecurityPolicy.None;
            if (none != (securityMode == MessageSecurityMode.None)) {
                throw new IllegalArgumentException("security policy " + securityPolicy + " with mode " + securityMode
                        + ": None goes with None, every other policy with Sign or SignAndEncrypt");
            }
            if (username != null && password == null) {
                throw new IllegalArgumentException("user '" + username + "' has no password");
            }
            if (requestTimeout.isNegative() || requestTimeout.isZero()) {
                throw new IllegalArgumentException("requestTimeout must be positive, was " + requestTimeout);
            }
            return new OpcUaTestClient(this);
        }

        /** A test client connected to the running server: close it when done. */
        public OpcUaTestClient connect() {
            OpcUaTestClient testClient = build();
            testClient.start();
            return testClient;
        }
    }
}
