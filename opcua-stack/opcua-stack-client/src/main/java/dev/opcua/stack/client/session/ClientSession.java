package dev.opcua.stack.client.session;

import dev.opcua.stack.core.Failures;
import dev.opcua.stack.client.transport.RequestHeaders;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.client.transport.uasc.ClientChannelSecurity;
import dev.opcua.stack.core.security.EcdhHeaders;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.ApplicationType;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ActivateSessionRequest;
import dev.opcua.stack.core.types.structured.ActivateSessionResponse;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import dev.opcua.stack.core.types.structured.CloseSessionRequest;
import dev.opcua.stack.core.types.structured.CloseSessionResponse;
import dev.opcua.stack.core.types.structured.CreateSessionRequest;
import dev.opcua.stack.core.types.structured.CreateSessionResponse;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.EphemeralKeyType;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.ResponseHeader;
import dev.opcua.stack.core.types.structured.SignatureData;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * A client session (Part 4, 5.6) on a secure channel the caller opened and keeps owning.
 *
 * <p>{@link #open} sends CreateSession (5.6.2) with a 32-byte clientNonce and, on a secured channel,
 * the client certificate; it checks that the server returned the certificate the channel trusted
 * and proved possession of its key (serverSignature over client certificate and nonce), and that
 * the serverNonce has at least 32 bytes. It then sends ActivateSession (5.6.3) with the
 * clientSignature over server certificate and nonce and the user identity token of the
 * UserTokenPolicy the server offers on the channel's endpoint (7.41, 7.42). {@link #activate}
 * changes the user later, with the serverNonce of the last activation. {@link #close} sends
 * CloseSession (5.6.4); the channel stays open for its owner to close.
 *
 * <p>Thread-safe; futures complete on the channel's executor. Activations must not overlap.
 */
public final class ClientSession {

    private volatile SessionTransport transport;
    private volatile ClientChannelSecurity security;
    private final SessionOptions options;
    private final NodeId sessionId;
    private final NodeId authenticationToken;
    private final Duration revisedTimeout;
    private final EndpointDescription[] serverEndpoints;
    private final ByteString serverCertificate;
    private final AtomicBoolean closing = new AtomicBoolean();
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    private volatile ByteString serverNonce;
    private volatile ClientIdentity identity;
    private volatile UserTokenPolicy userTokenPolicy;
    /** The server's ephemeral key of the last CreateSession or ActivateSession of an ECC channel (Part 6, 6.8.2). */
    private volatile ByteString serverEphemeralKey;

    private ClientSession(SessionTransport transport, ClientChannelSecurity security, SessionOptions options,
            CreateSessionResponse created) {
        this.transport = transport;
        this.security = security;
        this.options = options;
        this.sessionId = created.sessionId();
        this.authenticationToken = created.authenticationToken();
        this.revisedTimeout = Duration.ofMillis((long) created.revisedSessionTimeout());
        this.serverEndpoints = created.serverEndpoints() == null ? new EndpointDescription[0]
                : created.serverEndpoints().clone();
        this.serverCertificate = created.serverCertificate();
        this.serverNonce = created.serverNonce();
        this.serverEphemeralKey = ephemeralKey(security, created.responseHeader());
    }

    /**
     * On an ECC channel, the request header asks the server for an ephemeral key of the channel's policy
     * (Part 6, 6.8.2), with which a password is encrypted into an EccEncryptedSecret.
     */
    private static RequestHeader sessionServiceHeader(NodeId authenticationToken, SessionOptions options,
            ClientChannelSecurity security) {
        SecurityPolicy policy = security.security().policy();
        return RequestHeaders.create(authenticationToken, options.requestTimeout().toMillis(),
                policy.isEcc() ? EcdhHeaders.request(policy) : ExtensionObject.NULL);
    }

    /**
     * The server's ephemeral key in a response of an ECC channel, its signature checked with the key of the
     * server certificate the channel trusted; null when there is none.
     *
     * @throws UaException BadSecurityChecksFailed when the signature does not verify
     */
    private static ByteString ephemeralKey(ClientChannelSecurity security, ResponseHeader header) {
        SecurityPolicy policy = security.security().policy();
        EphemeralKeyType key = policy.isEcc() && header != null ? EcdhHeaders.key(header.additionalHeader()) : null;
        if (key == null) {
            return null;
        }
        if (!EcdhHeaders.verifies(policy, key, security.serverCertificate().getPublicKey())) {
            throw new UaException(StatusCodes.BadSecurityChecksFailed, "the server's ephemeral key (ECDHKey) is not"
                    + " signed with the key of " + SessionSignatures.describe(security.serverCertificate()));
        }
        return key.publicKey();
    }

    /**
     * Creates and activates a session on an open channel.
     *
     * @param channel the open channel; the session does not close it
     * @param security the security the channel was opened with: its policy and mode, the client
     *        certificate and the server certificate the channel trusted. On a channel with SecurityPolicy
     *        None, the certificate CreateSession returns is checked with its validator before a user
     *        token is encrypted or signed for it.
     * @return completes with the active session, or fails with a {@link UaException}: the status of a
     *         refused CreateSession or ActivateSession (BadUserAccessDenied, BadIdentityTokenRejected ...),
     *         BadCertificateInvalid when the server returns another certificate than the channel's,
     *         BadApplicationSignatureInvalid when its serverSignature does not verify, BadNonceInvalid for a
     *         serverNonce under 32 bytes, BadIdentityTokenRejected when the endpoint offers no token policy
     *         for the identity. A session created but not activated is closed again.
     */
    public static CompletableFuture<ClientSession> open(UaTcpClientChannel channel, ClientChannelSecurity security,
            SessionOptions options) {
        if (channel.security() != security) {
            throw new IllegalArgumentException("the security given is not the one the channel was opened with");
        }
        return open(SessionTransport.of(Objects.requireNonNull(channel, "channel")), security, options);
    }

    /** {@link #open(UaTcpClientChannel, ClientChannelSecurity, SessionOptions)} with the channel's own security. */
    public static CompletableFuture<ClientSession> open(UaTcpClientChannel channel, SessionOptions options) {
        return open(channel, channel.security(), options);
    }

    static CompletableFuture<ClientSession> open(SessionTransport transport, ClientChannelSecurity security,
            SessionOptions options) {
        Objects.requireNonNull(security, "security");
        Objects.requireNonNull(options, "options");
        boolean secured = security.security().policy() != SecurityPolicy.None;
        byte[] clientNonce = SessionSignatures.newNonce();
        ByteString clientCertificate = secured ? security.certificate().der() : ByteString.NULL;
        CreateSessionRequest request = new CreateSessionRequest(sessionServiceHeader(NodeId.NULL, options, security),
                new ApplicationDescription(options.applicationUri(), options.productUri(),
                        LocalizedText.of(options.applicationName()), ApplicationType.Client, null, null, null),
                null, transport.endpointUrl(), options.sessionName(), ByteString.wrap(clientNonce), clientCertificate,
                options.sessionTimeout().toMillis(), 0);
        CompletableFuture<ClientSession> result = new CompletableFuture<>();
        transport.request(request, CreateSessionResponse.class).whenComplete((created, failure) -> {
            if (failure != null) {
                result.completeExceptionally(failed("CreateSession on " + transport.endpointUrl(), failure));
                return;
            }
            ClientSession session;
            try {
                checkCreated(security, clientCertificate.unsafeBytes(), clientNonce, created);
                session = new ClientSession(transport, security, options, created);
            } catch (RuntimeException e) {
                // The server cannot be trusted with this session: leave it nothing to wait for.
                sendCloseSession(transport, created.authenticationToken(), options);
                result.completeExceptionally(e);
                return;
            }
            session.activate(options.identity()).whenComplete((ok, activationFailure) -> {
                if (activationFailure != null) {
                    session.close();
                    result.completeExceptionally(Failures.unwrap(activationFailure));
                } else if (!result.complete(session)) {
                    session.close(); // the caller cancelled meanwhile
                }
            });
        });
        return result;
    }

    /** The checks of Part 4, 5.6.2 a client makes on the CreateSession response of a secured channel. */
    private static void checkCreated(ClientChannelSecurity security, byte[] clientCertificate, byte[] clientNonce,
            CreateSessionResponse created) {
        SecurityPolicy policy = security.security().policy();
        if (policy == SecurityPolicy.None) {
            return;
        }
        X509Certificate trusted = security.serverCertificate();
        ByteString returned = created.serverCertificate();
        if (returned == null || returned.isNull() || returned.length() == 0) {
            throw new UaException(StatusCodes.BadCertificateInvalid, "the CreateSession response carries no"
                    + " serverCertificate; the channel trusted " + SessionSignatures.describe(trusted));
        }
        X509Certificate leaf = Certificates.decodeChain(returned.unsafeBytes()).get(0);
        if (!Arrays.equals(Certificates.encode(leaf), Certificates.encode(trusted))) {
            throw new UaException(StatusCodes.BadCertificateInvalid, "the CreateSession response carries "
                    + SessionSignatures.describe(leaf) + ", not the " + SessionSignatures.describe(trusted)
                    + " the secure channel was opened with");
        }
        SessionSignatures.verifyServerSignature(policy, trusted, created.serverSignature(), clientCertificate,
                clientNonce);
        SessionSignatures.requireNonce(created.serverNonce(), "CreateSession");
    }

    /**
     * Activates the session for a user (Part 4, 5.6.3): the first activation after CreateSession, or a
     * change of user later. Signs with the serverNonce of the last CreateSession or ActivateSession
     * response and keeps the new one for the next activation.
     *
     * @return fails with the status the server refused the activation with (BadUserAccessDenied,
     *         BadIdentityTokenInvalid ...), BadIdentityTokenRejected or BadSecurityPolicyRejected when the
     *         endpoint offers no usable token policy for the identity, BadNonceInvalid, BadSessionClosed
     */
    public CompletableFuture<Void> activate(ClientIdentity identity) {
        return activate(identity, transport, security);
    }

    private CompletableFuture<Void> activate(ClientIdentity identity, SessionTransport via,
            ClientChannelSecurity viaSecurity) {
        Objects.requireNonNull(identity, "identity");
        ActivateSessionRequest request;
        UserTokenPolicy policy;
        try {
            requireOpen();
            policy = UserTokenPolicies.select(serverEndpoints, via.endpointUrl(), viaSecurity.security(),
                    identity.tokenType());
            request = activateRequest(identity, policy, viaSecurity);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        String what = "ActivateSession of session " + sessionId + " as " + identity + " with token policy '"
                + policy.policyId() + "'";
        return via.request(request, ActivateSessionResponse.class).handle((response, failure) -> {
            if (failure != null) {
                throw failed(what, failure);
            }
            ByteString nonce = response.serverNonce();
            if (viaSecurity.security().policy() != SecurityPolicy.None) {
                SessionSignatures.requireNonce(nonce, "ActivateSession");
            }
            serverNonce = nonce;
            serverEphemeralKey = ephemeralKey(viaSecurity, response.responseHeader());
            this.identity = identity;
            this.userTokenPolicy = policy;
            this.security = viaSecurity;
            this.transport = via;
            return null;
        });
    }

    /**
     * Moves the session to another secure channel (Part 4, 5.6.3: "ActivateSession ... to associate the
     * Session with a new SecureChannel"), e.g. after the old one was lost: ActivateSession is sent on
     * {@code channel}, signed for the server certificate that channel trusted with the serverNonce of
     * the last activation, with the current user's identity token again. On success every later
     * request of the session goes over {@code channel}; on failure the session keeps its old channel
     * (the caller decides whether to create a new session: BadSessionIdInvalid or BadSessionClosed mean
     * the server no longer knows it).
     */
    public CompletableFuture<Void> activateOn(UaTcpClientChannel channel) {
        Objects.requireNonNull(channel, "channel");
        return activate(identity, SessionTransport.of(channel), channel.security());
    }

    private ActivateSessionRequest activateRequest(ClientIdentity identity, UserTokenPolicy policy,
            ClientChannelSecurity security) {
        SecurityPolicy channelPolicy = security.security().policy();
        ByteString nonce = serverNonce;
        boolean anonymous = identity instanceof ClientIdentity.Anonymous;
        if (channelPolicy != SecurityPolicy.None || !anonymous) {
            SessionSignatures.requireNonce(nonce, "the last CreateSession or ActivateSession");
        }
        byte[] nonceBytes = nonce == null ? null : nonce.unsafeBytes();
        SignatureData clientSignature = channelPolicy == SecurityPolicy.None ? SessionSignatures.none()
                : SessionSignatures.sign(channelPolicy, security.certificate().privateKey(),
                        Certificates.encode(security.serverCertificate()), nonceBytes);
        IdentityTokens.Activation token;
        if (anonymous) {
            token = IdentityTokens.build(identity, policy, SecurityPolicy.None, null, nonceBytes);
        } else {
            SecurityPolicy tokenSecurity = UserTokenPolicies.tokenSecurity(policy, channelPolicy);
            if (tokenSecurity.isEcc() && identity instanceof ClientIdentity.UserName user) {
                token = IdentityTokens.eccUserName(user, policy, tokenSecurity, security, serverEphemeralKey,
                        nonceBytes);
                serverEphemeralKey = null; // one secret per key
            } else {
                X509Certificate server = tokenSecurity == SecurityPolicy.None ? null
                        : serverCertificateForTokens(security);
                token = IdentityTokens.build(identity, policy, tokenSecurity, server, nonceBytes);
            }
        }
        List<String> locales = options.localeIds();
        return new ActivateSessionRequest(sessionServiceHeader(authenticationToken, options, security), clientSignature, null,
                locales.isEmpty() ? null : locales.toArray(new String[0]), token.token(), token.signature());
    }

    /**
     * The certificate user tokens are encrypted for and signed against: the one the channel trusted;
     * on a None channel the one CreateSession returned, once the channel's validator accepts it.
     */
    private X509Certificate serverCertificateForTokens(ClientChannelSecurity security) {
        if (security.serverCertificate() != null) {
            return security.serverCertificate();
        }
        if (serverCertificate == null || serverCertificate.isNull() || serverCertificate.length() == 0) {
            throw new UaException(StatusCodes.BadCertificateInvalid, "the server returned no certificate in"
                    + " CreateSession to encrypt or sign the user token for");
        }
        List<X509Certificate> chain = Certificates.decodeChain(serverCertificate.unsafeBytes());
        security.serverValidator().validate(chain);
        return chain.get(0);
    }

    /**
     * Reads attributes (Part 4, 5.10.2) with maxAge 0 and both timestamps.
     *
     * @return the results in the order of {@code nodesToRead}, or fails with the status of a refused Read
     */
    public CompletableFuture<DataValue[]> read(ReadValueId... nodesToRead) {
        return request(new ReadRequest(header(), 0, TimestampsToReturn.Both, nodesToRead), ReadResponse.class)
                .thenApply(response -> response.results() == null ? new DataValue[0] : response.results());
    }

    /**
     * Sends any service request of this session; build its header with {@link #header()}.
     *
     * @return fails with BadSessionClosed once the session is closed, else as
     *         {@link UaTcpClientChannel#request(UaStructure, Class)}
     */
    public <T extends UaStructure> CompletableFuture<T> request(UaStructure request, Class<T> responseType) {
        if (closing.get()) {
            return CompletableFuture.failedFuture(new UaException(StatusCodes.BadSessionClosed, "session "
                    + sessionId + " is closed"));
        }
        return transport.request(request, responseType);
    }

    /**
     * {@link #request(UaStructure, Class)} whose future, when the response arrives, completes on the I/O
     * thread that read it: see {@link UaTcpClientChannel#requestCompletingOnIoThread(UaStructure, Class)}.
     */
    public <T extends UaStructure> CompletableFuture<T> requestCompletingOnIoThread(UaStructure request,
            Class<T> responseType) {
        if (closing.get()) {
            return CompletableFuture.failedFuture(new UaException(StatusCodes.BadSessionClosed, "session "
                    + sessionId + " is closed"));
        }
        return transport.requestCompletingOnIoThread(request, responseType);
    }

    /**
     * {@link #request(UaStructure, Class)} completing with {@code then} applied to the response, on the
     * channel's executor, without a further dependent future.
     */
    public <T extends UaStructure, R> CompletableFuture<R> request(UaStructure request, Class<T> responseType,
            Function<? super T, ? extends R> then) {
        if (closing.get()) {
            return CompletableFuture.failedFuture(new UaException(StatusCodes.BadSessionClosed, "session "
                    + sessionId + " is closed"));
        }
        return transport.request(request, responseType, then);
    }

    /** A RequestHeader (Part 4, 7.33) of this session: its authenticationToken, a new handle, the request timeout. */
    public RequestHeader header() {
        return header(authenticationToken, options);
    }

    /**
     * Closes the session (Part 4, 5.6.4) and deletes its subscriptions. Idempotent; the channel stays
     * open.
     *
     * @return completes when the server confirmed, or fails with the status it refused with
     */
    public CompletableFuture<Void> close() {
        if (closing.compareAndSet(false, true)) {
            transport.request(new CloseSessionRequest(header(), true), CloseSessionResponse.class)
                    .whenComplete((response, failure) -> {
                        if (failure != null) {
                            closed.completeExceptionally(failed("CloseSession of session " + sessionId, failure));
                        } else {
                            closed.complete(null);
                        }
                    });
        }
        return closed;
    }

    public NodeId sessionId() {
        return sessionId;
    }

    /** The secret that identifies the session in every request header; never log it. */
    public NodeId authenticationToken() {
        return authenticationToken;
    }

    /** The session timeout the server granted. */
    public Duration revisedTimeout() {
        return revisedTimeout;
    }

    /** The endpoints the server returned in CreateSession. */
    public EndpointDescription[] serverEndpoints() {
        return serverEndpoints.clone();
    }

    /** The user of the last successful activation. */
    public ClientIdentity identity() {
        return identity;
    }

    /** The token policy of the last successful activation. */
    public UserTokenPolicy userTokenPolicy() {
        return userTokenPolicy;
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return closing.get();
    }

    @Override
    public String toString() {
        return "ClientSession[" + sessionId + " on " + transport.endpointUrl() + " " + security.security() + ", "
                + identity + "]";
    }

    private void requireOpen() {
        if (closing.get()) {
            throw new UaException(StatusCodes.BadSessionClosed, "session " + sessionId + " is closed");
        }
    }

    private static RequestHeader header(NodeId authenticationToken, SessionOptions options) {
        return RequestHeaders.create(authenticationToken, options.requestTimeout().toMillis());
    }

    /** CloseSession for a session that will not be used, answer ignored. */
    private static void sendCloseSession(SessionTransport transport, NodeId token, SessionOptions options) {
        if (token != null && !token.equals(NodeId.NULL)) {
            transport.request(new CloseSessionRequest(header(token, options), true), CloseSessionResponse.class);
        }
    }

    /** The failure of a service call, its status kept and the call named. */
    private static RuntimeException failed(String call, Throwable failure) {
        Throwable cause = Failures.unwrap(failure);
        if (cause instanceof UaException e) {
            String detail = e.getMessage();
            String prefix = e.statusCode() + ": ";
            if (detail.startsWith(prefix)) {
                detail = detail.substring(prefix.length());
            }
            return new UaException(e.statusCode(), call + " failed: " + detail, e);
        }
        if (cause instanceof CancellationException c) {
            return c;
        }
        return new UaException(StatusCode.of(StatusCodes.BadUnexpectedError), call + " failed: " + cause, cause);
    }
}
