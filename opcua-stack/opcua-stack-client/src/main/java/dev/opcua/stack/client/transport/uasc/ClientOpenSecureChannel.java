package dev.opcua.stack.client.transport.uasc;

import dev.opcua.stack.client.transport.uasc.UascClientHandler.State;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.channel.AsymmetricSecurityHeader;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.core.security.ChunkCrypto;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.crypto.AsymmetricChunkCrypto;
import dev.opcua.stack.core.security.crypto.EccChunkCrypto;
import dev.opcua.stack.core.security.crypto.EccCrypto;
import dev.opcua.stack.core.security.crypto.KeyDerivation;
import dev.opcua.stack.core.security.crypto.SymmetricChunkCrypto;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.enumerated.SecurityTokenRequestType;
import dev.opcua.stack.core.types.structured.ChannelSecurityToken;
import dev.opcua.stack.core.types.structured.OpenSecureChannelRequest;
import dev.opcua.stack.core.types.structured.OpenSecureChannelResponse;
import dev.opcua.stack.core.types.structured.ServiceFault;
import io.netty.buffer.ByteBuf;
import io.netty.util.Timeout;
import java.security.KeyPair;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * The OpenSecureChannel requests of one client channel (Part 6, 6.7.4; Part 4, 5.5.2): the Issue that
 * opens it and the Renews that keep its security token current for as long as the channel lives.
 * Sends each request under the asymmetric security of the channel's policy, checks the response (it
 * must use our policy, come from the server certificate we validated and answer the request
 * outstanding), derives the token's keys from both nonces ({@link KeyDerivation}), sends under the new
 * token at once and accepts the server's chunks under it ({@link ClientSecurityTokens}), and schedules
 * the next Renew at 75 % of the revised lifetime (Part 4, 5.5.2.1).
 *
 * <p>The {@link UascClientHandshakeHandler} asks for the Issue once the Acknowledge is checked; the
 * {@link UascClientHandler}, which reads every chunk for the channel's life, hands the responses here.
 * Decisions where the specification is silent: a renewal must be answered within the operation timeout
 * (BadTimeout), and a failed renewal closes the channel. Used on the channel's event loop only.
 */
final class ClientOpenSecureChannel {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final UascClientHandler channel;
    private final ClientChannelSecurity security;
    private final SecurityPolicy policy;
    private final TransportQuotas quotas;
    private final ClientSecurityTokens tokens;
    private final ClientRequests requests;
    private final UaDecoder decoder;
    private long ackProtocolVersion;
    /** RequestId of the OpenSecureChannel request outstanding; 0 when none is. */
    private long openRequestId;
    private byte[] clientNonce;
    /** The ephemeral key pair of the outstanding ECC OpenSecureChannel (Part 6, 6.8.1); null otherwise. */
    private KeyPair ephemeral;
    private long requestedLifetime;
    private Timeout renewal;
    private Timeout renewalTimeout;

    ClientOpenSecureChannel(UascClientHandler channel, ClientChannelSecurity security, TransportQuotas quotas,
            ClientSecurityTokens tokens, ClientRequests requests) {
        this.channel = channel;
        this.security = security;
        this.policy = security.security().policy();
        this.quotas = quotas;
        this.tokens = tokens;
        this.requests = requests;
        this.decoder = new UaDecoder(CodecRegistry.standard(), quotas.encodingLimits());
    }

    /**
     * Sends the Issue that opens the channel, once the Acknowledge with {@code ackProtocolVersion} is
     * checked: the ServerProtocolVersion of every response must equal it.
     */
    void issue(long ackProtocolVersion) {
        this.ackProtocolVersion = ackProtocolVersion;
        sendOpen(SecurityTokenRequestType.Issue);
    }

    /** Whether {@code requestId} is that of the OpenSecureChannel request outstanding. */
    boolean awaits(long requestId) {
        return requestId == openRequestId && openRequestId != 0;
    }

    /**
     * The crypto that verifies (and decrypts) an OPN chunk with this security header: the response must
     * use our policy and come from the server certificate of the endpoint, the one we trusted.
     */
    ChunkCrypto responseCrypto(AsymmetricSecurityHeader header) {
        if (!policy.uri().equals(header.securityPolicyUri())) {
            throw new UaException(StatusCodes.BadSecurityChecksFailed, "the OpenSecureChannel response uses "
                    + "policy " + header.securityPolicyUri() + ", the request used " + policy.uri());
        }
        if (policy == SecurityPolicy.None) {
            return ChunkCrypto.NONE;
        }
        X509Certificate server = security.serverCertificate();
        List<X509Certificate> sent = header.senderCertificate().isNull() ? List.of()
                : Certificates.decodeChain(header.senderCertificate().unsafeBytes());
        if (sent.isEmpty() || !sent.get(0).equals(server)) {
            throw new UaException(StatusCodes.BadSecurityChecksFailed, "the OpenSecureChannel response is not "
                    + "signed with the server certificate of the endpoint");
        }
        if (policy.isEcc()) {
            return EccChunkCrypto.forReceiving(policy, server.getPublicKey());
        }
        return AsymmetricChunkCrypto.forReceiving(policy, security.certificate().privateKey(),
                server.getPublicKey());
    }

    /** Cancels the renewal and its timeout: the channel is closed. */
    void stop() {
        UascClientHandler.cancel(renewal);
        UascClientHandler.cancel(renewalTimeout);
        renewal = null;
        renewalTimeout = null;
    }

    private void sendOpen(SecurityTokenRequestType type) {
        openRequestId = requests.nextRequestId();
        requestedLifetime = quotas.securityTokenLifetime().toMillis();
        long timeoutHint = quotas.operationTimeout().toMillis();
        ByteString nonce = ByteString.NULL;
        AsymmetricSecurityHeader securityHeader = AsymmetricSecurityHeader.NONE;
        ChunkCrypto crypto = ChunkCrypto.NONE;
        if (policy != SecurityPolicy.None) {
            if (policy.isEcc()) {
                // the nonce is a new ephemeral public key for every Issue and Renew (Part 6, 6.8.1)
                ephemeral = EccCrypto.ephemeralKeyPair(policy);
                clientNonce = EccCrypto.encodePublicKey(policy, ephemeral.getPublic());
            } else {
                clientNonce = new byte[policy.nonceLength()];
                RANDOM.nextBytes(clientNonce);
            }
            nonce = ByteString.of(clientNonce);
            X509Certificate server = security.serverCertificate();
            securityHeader = new AsymmetricSecurityHeader(policy.uri(), security.certificate().chainDer(),
                    ByteString.wrap(Certificates.thumbprint(server)));
            crypto = policy.isEcc() ? EccChunkCrypto.forSending(policy, security.certificate().privateKey())
                    : AsymmetricChunkCrypto.forSending(policy, security.certificate().privateKey(),
                            server.getPublicKey());
        }
        OpenSecureChannelRequest request = new OpenSecureChannelRequest(channel.channelRequestHeader(timeoutHint),
                UascClientHandler.PROTOCOL_VERSION, type, security.security().mode(), nonce, requestedLifetime);
        // Issue: SecureChannelId 0 in the header (Part 6, 6.7.6); Renew: the channel's id.
        long channelIdInHeader = type == SecurityTokenRequestType.Issue ? 0 : channel.secureChannelId();
        channel.writer().writeAsymmetric(channelIdInHeader, securityHeader, crypto, openRequestId, request);
    }

    private void renew() {
        renewal = null;
        if (channel.state() != State.OPEN || openRequestId != 0) {
            return;
        }
        try {
            sendOpen(SecurityTokenRequestType.Renew);
        } catch (RuntimeException e) {
            channel.fail(UascClientHandler.toUaException(e));
            return;
        }
        renewalTimeout = channel.schedule(() -> {
            if (openRequestId != 0 && channel.state() == State.OPEN) {
                channel.fail(new UaException(StatusCodes.BadTimeout, "no response to the token renewal within "
                        + quotas.operationTimeout().toMillis() + " ms"));
            }
        }, quotas.operationTimeout().toMillis());
    }

    /** The response to our Issue or Renew (Part 6, 6.7.4, Table 63; Part 4, 5.5.2); the caller releases it. */
    void onResponse(long requestId, ByteBuf message) {
        if (!awaits(requestId)) {
            throw new UaException(StatusCodes.BadSecurityChecksFailed, "OpenSecureChannel response for request "
                    + requestId + ", but none is outstanding");
        }
        boolean renewing = channel.state() == State.OPEN;
        UaStructure decoded;
        try {
            decoded = decoder.setBuffer(message).readMessage();
        } finally {
            decoder.setBuffer(null);
        }
        if (decoded instanceof ServiceFault fault) {
            throw new UaException(fault.responseHeader().serviceResult(), "the server refused to "
                    + (renewing ? "renew" : "open") + " the secure channel");
        }
        if (!(decoded instanceof OpenSecureChannelResponse response) || response.securityToken() == null) {
            throw new UaException(StatusCodes.BadUnknownResponse, "expected an OpenSecureChannelResponse, received "
                    + decoded.getClass().getSimpleName());
        }
        if (response.serverProtocolVersion() != ackProtocolVersion) {
            throw new UaException(StatusCodes.BadProtocolVersionUnsupported, "ServerProtocolVersion "
                    + response.serverProtocolVersion() + " differs from the acknowledged " + ackProtocolVersion);
        }
        ChannelSecurityToken token = response.securityToken();
        if (renewing && token.channelId() != channel.secureChannelId()) {
            throw new UaException(StatusCodes.BadSecureChannelIdInvalid, "the renewed token is for channel "
                    + token.channelId() + ", not " + channel.secureChannelId());
        }
        UascClientHandler.cancel(renewalTimeout);
        renewalTimeout = null;
        openRequestId = 0;
        KeyPair ownEphemeral = ephemeral; // used once: the next Renew makes a new one
        ephemeral = null;
        // Part 4, 5.5.2: the server shall revise to > 0; fall back to what we asked for if it did not.
        long lifetime = token.revisedLifetime() > 0 ? token.revisedLifetime() : requestedLifetime;
        ChunkCrypto sendCrypto = ChunkCrypto.NONE;
        ChunkCrypto receiveCrypto = ChunkCrypto.NONE;
        if (security.security().signs()) {
            byte[] serverNonce = response.serverNonce() == null ? null : response.serverNonce().unsafeBytes();
            if (serverNonce == null || serverNonce.length < policy.nonceLength()) {
                throw new UaException(StatusCodes.BadNonceInvalid, "the ServerNonce has "
                        + (serverNonce == null ? "no" : String.valueOf(serverNonce.length)) + " bytes, " + policy
                        + " needs " + policy.nonceLength());
            }
            KeyDerivation.ChannelKeys keys;
            if (policy.isEcc()) {
                PublicKey serverKey = EccCrypto.decodePublicKey(policy, serverNonce);
                keys = KeyDerivation.deriveEcc(policy, EccCrypto.sharedSecret(policy, ownEphemeral.getPrivate(),
                        serverKey), clientNonce, serverNonce);
            } else {
                keys = KeyDerivation.derive(policy, clientNonce, serverNonce);
            }
            sendCrypto = SymmetricChunkCrypto.forSending(security.security(), keys.client());
            receiveCrypto = SymmetricChunkCrypto.forReceiving(security.security(), keys.server());
        }
        channel.secureChannelId(token.channelId());
        tokens.roll(token.tokenId(), lifetime, System.nanoTime(), receiveCrypto);
        // Send under the new token at once (Part 6, 6.7.4).
        channel.writer().setToken(token.channelId(), token.tokenId(), sendCrypto);
        renewal = channel.schedule(this::renew, Math.max(1, lifetime * 3 / 4));
        if (!renewing) {
            channel.opened();
        }
    }
}
