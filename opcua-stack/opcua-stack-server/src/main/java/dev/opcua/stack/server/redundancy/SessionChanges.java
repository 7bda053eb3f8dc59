package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.types.builtin.NodeId;
import java.util.List;
import java.util.Objects;

/**
 * What one {@link SessionMirror} cycle writes of one session: the session's own part when it changed, and the
 * changes of its subscriptions. Writes are proportional to what changed: a NotificationMessage is written once when
 * sent and deleted once when acknowledged; the definitions of subscriptions and their items only when they change.
 *
 * @param sessionId the SessionId
 * @param tokenHash SHA-256 of its AuthenticationToken, by which a partner finds it
 * @param session the session's part ({@link MirroredSessionCodec#encodeSession}) when it changed; never null with
 *        {@code replace}
 * @param replace whether what the store holds of the session is replaced as a whole: its subscriptions and
 *        messages not named in {@code subscriptions} are deleted first (the session's first write by this server,
 *        and the write after the mirror dropped what it had waiting)
 * @param subscriptions the changes of its subscriptions
 * @param removedSubscriptions the SubscriptionIds of subscriptions that left the session (deleted, transferred)
 */
public record SessionChanges(NodeId sessionId, byte[] tokenHash, byte[] session, boolean replace,
        List<SubscriptionChanges> subscriptions, List<Long> removedSubscriptions) {

    public SessionChanges {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(tokenHash, "tokenHash");
        if (replace && session == null) {
            throw new IllegalArgumentException("a replacing write needs the session's part");
        }
        subscriptions = List.copyOf(subscriptions);
        removedSubscriptions = List.copyOf(removedSubscriptions);
    }

    /** How many bytes these changes write, about. */
    public long size() {
        long size = 64 + (session == null ? 0 : session.length) + 8L * removedSubscriptions.size();
        for (SubscriptionChanges subscription : subscriptions) {
            size += subscription.size();
        }
        return size;
    }
}
