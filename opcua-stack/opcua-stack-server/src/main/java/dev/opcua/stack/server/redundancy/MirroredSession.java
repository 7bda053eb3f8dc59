package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.session.SessionSnapshot;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord;
import java.util.List;
import java.util.Objects;

/**
 * One session of a HotAndMirrored server as its {@link SessionStateStore} keeps it (Part 4, 6.6.2.4.5): the
 * session ({@link SessionSnapshot}), the hash of its AuthenticationToken by which a partner finds it when the
 * client activates it there, and its subscriptions with their monitored items, queues, sequence numbers and
 * unacknowledged NotificationMessages (as {@link DurableSubscriptionRecord}s). Encoded by
 * {@link MirroredSessionCodec}.
 *
 * @param session the session's ids, parameters, client certificate, user and last server nonce
 * @param tokenHash SHA-256 of the AuthenticationToken's text form ({@link dev.opcua.stack.server.session.Session#tokenHash}); the token itself, a secret,
 *        is not kept
 * @param subscriptions the session's subscriptions
 */
public record MirroredSession(SessionSnapshot session, byte[] tokenHash, List<DurableSubscriptionRecord> subscriptions) {

    public MirroredSession {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(tokenHash, "tokenHash");
        subscriptions = List.copyOf(subscriptions);
    }

    /** The session's id. */
    public NodeId sessionId() {
        return session.sessionId();
    }
}
