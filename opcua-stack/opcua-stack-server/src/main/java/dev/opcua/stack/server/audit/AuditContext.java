package dev.opcua.stack.server.audit;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * Who asked for an audited action and through what (Part 5, 6.4.3 and 6.4.5): the fields every audit
 * record of a request shares. The session layer makes it for a session's requests; a request without a
 * session gets {@link #ofChannel}.
 *
 * @param clientUserId ClientUserId: the session's user ("Anonymous" for the anonymous user)
 * @param clientAuditEntryId the request header's auditEntryId, or null
 * @param clientAddress the client's socket address as host:port, or null
 * @param clientApplicationUri the client's ApplicationUri, or null
 * @param sessionId the session, or null
 * @param secureChannelId the secure channel, 0 when none is open
 */
public record AuditContext(
        String clientUserId,
        String clientAuditEntryId,
        String clientAddress,
        String clientApplicationUri,
        NodeId sessionId,
        long secureChannelId) {

    /** ClientUserId of the anonymous user. */
    public static final String ANONYMOUS = "Anonymous";

    /** The context of a request that has no session yet (CreateSession): the channel's address and id. */
    public static AuditContext ofChannel(ServerSecureChannel channel, RequestHeader header, String clientUserId,
            String clientApplicationUri) {
        return new AuditContext(clientUserId, header == null ? null : header.auditEntryId(),
                address(channel.remoteAddress()), clientApplicationUri, null, channel.secureChannelId());
    }

    /** The context of a request of {@code sessionId}. */
    public static AuditContext of(ServerSecureChannel channel, RequestHeader header, String clientUserId,
            String clientApplicationUri, NodeId sessionId) {
        return new AuditContext(clientUserId, header == null ? null : header.auditEntryId(),
                channel == null ? null : address(channel.remoteAddress()), clientApplicationUri, sessionId,
                channel == null ? 0 : channel.secureChannelId());
    }

    /** SecureChannelId as the audit events carry it (Part 5, 6.4.5: the same text in every event of the channel). */
    public String secureChannelIdText() {
        return Long.toString(secureChannelId);
    }

    /** host:port of an IP socket address, else its text; null for null. */
    public static String address(SocketAddress address) {
        if (address instanceof InetSocketAddress inet) {
            return inet.getHostString() + ":" + inet.getPort();
        }
        return address == null ? null : address.toString();
    }
}
