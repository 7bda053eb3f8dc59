package dev.opcua.stack.server.transport.uasc;

import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.encoding.CodecRegistry;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * What every {@link UascServerHandler} of one server shares: its limits, the endpoints it serves,
 * the codecs, the SecureChannelId pool and the live counters.
 *
 * @param quotas buffer sizes, message limits, timers and maxConnections
 * @param endpointUrlFilter accepts the EndpointUrl of a Hello that names an endpoint of this server;
 *        a refused URL is answered with BadTcpEndpointUrlInvalid (Part 6, 7.1.2.3). It should check the
 *        path only: clients reach a server through many host names.
 * @param registry codecs of the messages on secure channels
 * @param channelIds the server-wide SecureChannelId pool
 * @param counters live connection and secure channel counts
 * @param security the policies and modes accepted, the server certificate and the client certificate validator
 * @param openObserver told of every OpenSecureChannel answered or refused (the audit trail); null for none
 */
public record ServerChannelSettings(
        TransportQuotas quotas,
        Predicate<String> endpointUrlFilter,
        CodecRegistry registry,
        SecureChannelIds channelIds,
        ServerChannelCounters counters,
        ServerChannelSecurity security,
        OpenSecureChannelObserver openObserver) {

    public ServerChannelSettings {
        Objects.requireNonNull(security, "security");
        Objects.requireNonNull(quotas, "quotas");
        Objects.requireNonNull(endpointUrlFilter, "endpointUrlFilter");
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(channelIds, "channelIds");
        Objects.requireNonNull(counters, "counters");
    }

    /** Settings that tell nobody of OpenSecureChannel requests. */
    public ServerChannelSettings(TransportQuotas quotas, Predicate<String> endpointUrlFilter, CodecRegistry registry,
            SecureChannelIds channelIds, ServerChannelCounters counters, ServerChannelSecurity security) {
        this(quotas, endpointUrlFilter, registry, channelIds, counters, security, null);
    }

    /** Settings that accept SecurityPolicy None only. */
    public ServerChannelSettings(TransportQuotas quotas, Predicate<String> endpointUrlFilter, CodecRegistry registry,
            SecureChannelIds channelIds, ServerChannelCounters counters) {
        this(quotas, endpointUrlFilter, registry, channelIds, counters, ServerChannelSecurity.NONE_ONLY);
    }

    /** Settings with the standard codecs, a randomly seeded id pool, new counters and SecurityPolicy None only. */
    public ServerChannelSettings(TransportQuotas quotas, Predicate<String> endpointUrlFilter) {
        this(quotas, endpointUrlFilter, CodecRegistry.standard(), new SecureChannelIds(), new ServerChannelCounters());
    }
}
