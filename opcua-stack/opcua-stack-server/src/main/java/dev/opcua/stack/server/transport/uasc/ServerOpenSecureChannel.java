package dev.opcua.stack.server.transport.uasc;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.channel.AsymmetricSecurityHeader;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.core.security.ChunkCrypto;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.crypto.AsymmetricChunkCrypto;
import dev.opcua.stack.core.security.crypto.EccChunkCrypto;
import dev.opcua.stack.core.security.crypto.EccCrypto;
import dev.opcua.stack.core.security.crypto.KeyDerivation;
import dev.opcua.stack.core.security.crypto.SymmetricChunkCrypto;
import dev.opcua.stack.core.transport.uasc.SecureChannelWriter;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.SecurityTokenRequestType;
import dev.opcua.stack.core.types.structured.ChannelSecurityToken;
import dev.opcua.stack.core.types.structured.OpenSecureChannelRequest;
import dev.opcua.stack.core.types.structured.OpenSecureChannelResponse;
import io.netty.buffer.ByteBuf;
import java.security.KeyPair;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAKey;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Future;

/**
 * The server side of OpenSecureChannel on one connection (Part 6, 6.7.4; Part 4, 5.5.2): checks the
 * security header of each OPN chunk, answers the Issue that opens the channel and each Renew, and keeps
 * the channel's tokens ({@link ServerSecurityTokens}) for as long as it lives: which token verifies a
 * chunk, which one secures what the server sends, and when the last one expires unrenewed.
 *
 * <p>The {@link UascServerHandler} reads and reassembles the chunks of every message and hands the whole
 * OpenSecureChannel requests here; the rules this class enforces are listed on that handler. Owned by
 * the connection's event loop; not thread-safe.
 */
final class ServerOpenSecureChannel {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final UascServerHandler connection;
    private final ServerChannelSettings settings;
    private final ServerChannelSecurity security;
    private final ServerSecurityTokens tokens;
    /** Expires the current token when its acceptance ends; runs while the channel is open. */
    private Future<?> tokenTimer;
    /** The policy and mode of the open channel. */
    private EndpointSecurity channelSecurity;
    /** Policy and client certificate chain of the OPN chunk being read; the chain stays the channel's once open. */
    private SecurityPolicy opnPolicy;
    /** The server certificate this channel was opened with: its renewals stay encrypted for it after a replacement. */
    private ApplicationCertificate channelCertificate;
    private List<X509Certificate> opnClientChain = List.of();
    /** The client's ephemeral public key of the last ECC OpenSecureChannel: a renewal must bring a new one. */
    private byte[] lastClientEphemeralKey;
    /** Told of each request answered or refused; null when nobody listens, so that the checks cost nothing. */
    private final OpenSecureChannelObserver observer;
    /** The OPN being answered, as far as it was read, for the observer: policy, client certificate, request. */
    private String attemptPolicyUri;
    private X509Certificate attemptCertificate;
    private OpenSecureChannelRequest attemptRequest;

    ServerOpenSecureChannel(UascServerHandler connection, ServerChannelSettings settings) {
        this.connection = connection;
        this.settings = settings;
        this.observer = settings.openObserver();
        this.security = settings.security();
        this.tokens = new ServerSecurityTokens(settings.quotas().securityTokenLifetime().toMillis());
    }

    /**
     * Checks the security header of an OPN chunk (Part 6, 6.7.2.3 and 6.7.4): an offered policy, the
     * same one as the channel's on a renewal; with a policy other than None, a client certificate the
     * validator trusts (Part 4, 6.1.3; on a renewal, the channel's certificate) and our certificate's
     * thumbprint. Returns the crypto that decrypts and verifies the chunk.
     */
    ChunkCrypto requestCrypto(AsymmetricSecurityHeader header) {
        String policyUri = header.securityPolicyUri();
        if (observer != null) {
            attemptPolicyUri = policyUri;
            attemptCertificate = null;
            attemptRequest = null;
        }
        SecurityPolicy policy = SecurityPolicy.fromUri(policyUri);
        if (policy == null || !security.accepts(policy)) {
            throw new UaException(StatusCodes.BadSecurityPolicyRejected,
                    "security policy " + policyUri + " is not offered");
        }
        boolean renewal = connection.isChannelOpen();
        if (renewal && policy != channelSecurity.policy()) {
            throw new UaException(StatusCodes.BadSecurityPolicyRejected, "the channel was opened with "
                    + channelSecurity.policy() + "; a renewal cannot change it to " + policy);
        }
        opnPolicy = policy;
        if (!renewal) {
            channelCertificate = security.certificate(policy);
            connection.writer().sequenceNumbersFor(policy); // before the response, the channel's first chunk
        }
        if (policy == SecurityPolicy.None) {
            opnClientChain = List.of();
            return ChunkCrypto.NONE;
        }
        if (header.senderCertificate().isNull()) {
            throw new UaException(StatusCodes.BadCertificateInvalid,
                    "an OpenSecureChannel with " + policy + " carries no client certificate");
        }
        List<X509Certificate> chain = Certificates.decodeChain(header.senderCertificate().unsafeBytes());
        X509Certificate leaf = chain.get(0);
        if (observer != null) {
            attemptCertificate = leaf;
        }
        if (!channelCertificate.thumbprint().equals(header.receiverCertificateThumbprint())) {
            throw new UaException(StatusCodes.BadCertificateInvalid, "the OpenSecureChannel is encrypted for "
                    + "the certificate with thumbprint "
                    + Certificates.hex(header.receiverCertificateThumbprint().unsafeBytes())
                    + ", not for this server's");
        }
        if (renewal) {
            if (!leaf.equals(opnClientChain.get(0))) {
                throw new UaException(StatusCodes.BadSecurityChecksFailed,
                        "a renewal must come from the certificate that opened the channel");
            }
        } else {
            checkClientKey(policy, leaf);
            security.clientValidator().validate(chain);
            opnClientChain = List.copyOf(chain);
        }
        if (policy.isEcc()) {
            return EccChunkCrypto.forReceiving(policy, leaf.getPublicKey());
        }
        return AsymmetricChunkCrypto.forReceiving(policy, channelCertificate.privateKey(), leaf.getPublicKey());
    }

    /**
     * The client certificate's key fits the policy (Part 7, CertificateKeyAlgorithm and key lengths): RSA
     * of at least the policy's minimum length, or ECC on the policy's curve; otherwise
     * BadCertificatePolicyCheckFailed.
     */
    static void checkClientKey(SecurityPolicy policy, X509Certificate leaf) {
        if (policy.isEcc()) {
            if (!policy.certificateType().matches(leaf.getPublicKey())) {
                throw new UaException(StatusCodes.BadCertificatePolicyCheckFailed, "the client certificate holds an "
                        + Certificates.describeKey(leaf) + " key; " + policy + " needs EC "
                        + policy.certificateType().curve());
            }
            return;
        }
        if (!(leaf.getPublicKey() instanceof RSAKey)) {
            throw new UaException(StatusCodes.BadCertificatePolicyCheckFailed, "the client certificate holds an "
                    + Certificates.describeKey(leaf) + " key; " + policy + " needs RSA");
        }
        if (Certificates.keySizeBytes(leaf) * 8 < policy.minAsymmetricKeyBits()) {
            throw new UaException(StatusCodes.BadCertificatePolicyCheckFailed, "the client key of "
                    + Certificates.keySizeBytes(leaf) * 8 + " bits is shorter than " + policy + " allows");
        }
    }

    /** The crypto that verifies a MSG or CLO chunk under {@code tokenId}: the current or the pending token's. */
    ChunkCrypto receiveCrypto(long tokenId) {
        ServerSecurityTokens.Token token = tokens.find(tokenId);
        if (token == null) {
            throw new UaException(StatusCodes.BadSecureChannelTokenUnknown,
                    "security token " + tokenId + " is unknown or expired");
        }
        return token.receiveCrypto();
    }

    /**
     * After a MSG or CLO chunk verified: a chunk under the renewed token makes it current (Part 6,
     * 6.7.4), so the server sends under it from now on and the old one is gone. Done only once the
     * chunk's signature checked out, so that a forged chunk cannot switch tokens.
     */
    void tokenUsed(long tokenId) {
        ServerSecurityTokens.Token before = tokens.current();
        tokens.accept(tokenId);
        ServerSecurityTokens.Token current = tokens.current();
        if (current != before) {
            connection.writer().setToken(connection.secureChannelId(), current.id(), current.sendCrypto());
            scheduleTokenTimer();
        }
    }

    /** The lifetime granted to the token in use, in milliseconds. */
    long tokenLifetimeMillis() {
        return tokens.current().lifetimeMillis();
    }

    /** Cancels the token timer: the connection is closed. */
    void stop() {
        tokenTimer = UascServerHandler.cancel(tokenTimer);
    }

    /**
     * Answers a whole OpenSecureChannel request: issues or renews a token (Part 6, 6.7.4; Part 4,
     * 5.5.2), or refuses a mode that is not offered with a ServiceFault. An Issue opens the channel.
     * The caller releases {@code message}.
     *
     * @param helloProtocolVersion the ProtocolVersion of the connection's Hello, which the request must repeat
     * @return whether an Issue opened the channel
     */
    boolean answer(long requestId, ByteBuf message, long helloProtocolVersion) {
        OpenSecureChannelRequest request = decode(message);
        if (observer != null) {
            attemptRequest = request;
        }
        long requestHandle = request.requestHeader().requestHandle();
        if (request.clientProtocolVersion() != helloProtocolVersion) {
            throw new UaException(StatusCodes.BadProtocolVersionUnsupported, "ClientProtocolVersion "
                    + request.clientProtocolVersion() + " differs from the Hello's " + helloProtocolVersion);
        }
        boolean issue = request.requestType() == SecurityTokenRequestType.Issue;
        if (issue && connection.isChannelOpen()) {
            throw new UaException(StatusCodes.BadRequestTypeInvalid,
                    "the secure channel is already open: renew its token instead of issuing one");
        }
        if (!issue && !connection.isChannelOpen()) {
            throw new UaException(StatusCodes.BadTcpSecureChannelUnknown, "there is no secure channel to renew");
        }
        SecurityPolicy policy = opnPolicy;
        X509Certificate clientCertificate = opnClientChain.isEmpty() ? null : opnClientChain.get(0);
        AsymmetricSecurityHeader responseHeader = policy == SecurityPolicy.None ? AsymmetricSecurityHeader.NONE
                : new AsymmetricSecurityHeader(policy.uri(), channelCertificate.chainDer(),
                        ByteString.wrap(Certificates.thumbprint(clientCertificate)));
        ChunkCrypto responseCrypto = policy == SecurityPolicy.None ? ChunkCrypto.NONE
                : policy.isEcc() ? EccChunkCrypto.forSending(policy, channelCertificate.privateKey())
                : AsymmetricChunkCrypto.forSending(policy, channelCertificate.privateKey(),
                        clientCertificate.getPublicKey());
        SecureChannelWriter writer = connection.writer();
        EndpointSecurity requested = requestedSecurity(policy, request.securityMode());
        if (requested == null || !security.accepts(requested) || (!issue && !requested.equals(channelSecurity))) {
            writer.writeAsymmetric(connection.secureChannelId(), responseHeader, responseCrypto, requestId,
                    ResponseHeaders.serviceFault(requestHandle, StatusCodes.BadSecurityModeRejected));
            if (observer != null) {
                report(connection.isChannelOpen() ? connection.secureChannelId() : 0,
                        StatusCodes.BadSecurityModeRejected, "the mode is not offered with the policy");
            }
            return false;
        }
        ByteString serverNonce = ByteString.NULL;
        ChunkCrypto sendCrypto = ChunkCrypto.NONE;
        ChunkCrypto receiveCrypto = ChunkCrypto.NONE;
        if (policy != SecurityPolicy.None) {
            byte[] clientNonce = request.clientNonce() == null ? null : request.clientNonce().unsafeBytes();
            if (clientNonce == null || clientNonce.length < policy.nonceLength()) {
                throw new UaException(StatusCodes.BadNonceInvalid, "the ClientNonce has "
                        + (clientNonce == null ? "no" : String.valueOf(clientNonce.length)) + " bytes, "
                        + policy + " needs " + policy.nonceLength());
            }
            byte[] nonce;
            KeyDerivation.ChannelKeys keys;
            if (policy.isEcc()) {
                // Part 6, 6.8.1: the ClientNonce is the client's ephemeral public key; ours answers it
                if (lastClientEphemeralKey != null && Arrays.equals(lastClientEphemeralKey, clientNonce)) {
                    throw new UaException(StatusCodes.BadNonceInvalid, "the client reused its ephemeral key: each "
                            + "OpenSecureChannel needs a new one (Part 6, 6.8.1)");
                }
                PublicKey clientKey = EccCrypto.decodePublicKey(policy, clientNonce);
                KeyPair ephemeral = EccCrypto.ephemeralKeyPair(policy);
                nonce = EccCrypto.encodePublicKey(policy, ephemeral.getPublic());
                keys = KeyDerivation.deriveEcc(policy, EccCrypto.sharedSecret(policy, ephemeral.getPrivate(),
                        clientKey), clientNonce, nonce);
                lastClientEphemeralKey = clientNonce.clone();
            } else {
                nonce = new byte[policy.nonceLength()];
                RANDOM.nextBytes(nonce);
                keys = KeyDerivation.derive(policy, clientNonce, nonce);
            }
            serverNonce = ByteString.wrap(nonce);
            if (requested.signs()) {
                sendCrypto = SymmetricChunkCrypto.forSending(requested, keys.server());
                receiveCrypto = SymmetricChunkCrypto.forReceiving(requested, keys.client());
            }
        }
        long now = connection.nanoTime();
        ServerSecurityTokens.Token token;
        long secureChannelId;
        if (issue) {
            secureChannelId = settings.channelIds().acquire();
            channelSecurity = requested;
            token = tokens.issue(request.requestedLifetime(), now, sendCrypto, receiveCrypto);
            writer.setToken(secureChannelId, token.id(), token.sendCrypto());
            connection.opened(secureChannelId, requested, opnClientChain);
            scheduleTokenTimer();
        } else {
            secureChannelId = connection.secureChannelId();
            token = tokens.renew(request.requestedLifetime(), now, sendCrypto, receiveCrypto);
        }
        OpenSecureChannelResponse response = new OpenSecureChannelResponse(ResponseHeaders.good(requestHandle),
                BufferNegotiation.PROTOCOL_VERSION,
                new ChannelSecurityToken(secureChannelId, token.id(), token.createdAt(), token.lifetimeMillis()),
                serverNonce);
        writer.writeAsymmetric(secureChannelId, responseHeader, responseCrypto, requestId, response);
        if (observer != null) {
            report(secureChannelId, StatusCodes.Good, null);
        }
        return issue;
    }

    /** An OPN failed with {@code failure}, which closes the connection: the observer hears of it. */
    void refused(RuntimeException failure) {
        if (observer == null) {
            return;
        }
        int status = failure instanceof UaException e ? e.statusCode().value() : StatusCodes.BadInternalError;
        report(connection.isChannelOpen() ? connection.secureChannelId() : 0, status, failure.getMessage());
    }

    private void report(long secureChannelId, int status, String reason) {
        OpenSecureChannelRequest request = attemptRequest;
        observer.answered(connection.remoteAddress(), secureChannelId, request == null ? null : request.requestType(),
                attemptPolicyUri, request == null ? null : request.securityMode(),
                request == null ? 0 : request.requestedLifetime(), attemptCertificate, status, reason);
        attemptRequest = null;
    }

    /** The pair the client asks for, or null when the mode does not go with the policy. */
    private static EndpointSecurity requestedSecurity(SecurityPolicy policy, MessageSecurityMode mode) {
        try {
            return mode == null ? null : new EndpointSecurity(policy, mode);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private OpenSecureChannelRequest decode(ByteBuf body) {
        UaDecoder decoder = new UaDecoder(settings.registry(), settings.quotas().encodingLimits(), body);
        UaStructure message = decoder.readMessage();
        if (message instanceof OpenSecureChannelRequest request) {
            return request;
        }
        throw new UaException(StatusCodes.BadDecodingError, "an OPN chunk carries a "
                + message.getClass().getSimpleName() + " instead of an OpenSecureChannelRequest");
    }

    private void scheduleTokenTimer() {
        UascServerHandler.cancel(tokenTimer);
        long delay = tokens.current().acceptedUntilNanos() - connection.nanoTime();
        tokenTimer = connection.schedule(this::onTokenExpired, Math.max(0, delay));
    }

    private void onTokenExpired() {
        if (!connection.isChannelOpen()) {
            return;
        }
        long expired = tokens.current().id();
        if (tokens.expireCurrent()) {
            connection.writer().setToken(connection.secureChannelId(), tokens.current().id(),
                    tokens.current().sendCrypto());
            scheduleTokenTimer();
        } else {
            connection.fail(TransportRejection.PROTOCOL_ERROR, StatusCodes.BadSecureChannelClosed,
                    "security token " + expired + " expired without renewal", null);
        }
    }
}
