package dev.opcua.stack.server.session;

import dev.opcua.stack.core.types.builtin.NodeId;

/**
 * Where ActivateSession looks for a session this server does not hold: the shared state of a HotAndMirrored
 * redundant set (Part 4, 6.6.2.4.5), where a partner's sessions are kept so that a client that fails over can
 * activate its session here on a new SecureChannel (Part 4, 5.6.3) instead of creating a new one.
 */
public interface SessionTakeover {

    /** No shared state: an unknown AuthenticationToken is BadSessionIdInvalid. */
    SessionTakeover NONE = new SessionTakeover() {
        @Override
        public SessionSnapshot find(NodeId authenticationToken) {
            return null;
        }

        @Override
        public void takenOver(Session session, NodeId authenticationToken) {
        }
    };

    /** The state of the session with this AuthenticationToken held for another server; null when there is none. */
    SessionSnapshot find(NodeId authenticationToken);

    /**
     * The client proved the session (same client certificate, signature over the last server nonce, same user):
     * claim it for this server and bring back what hangs on it (subscriptions, their queues and sequence numbers).
     *
     * @throws dev.opcua.stack.core.UaException BadSessionIdInvalid when another server claimed it first
     */
    void takenOver(Session session, NodeId authenticationToken);
}
