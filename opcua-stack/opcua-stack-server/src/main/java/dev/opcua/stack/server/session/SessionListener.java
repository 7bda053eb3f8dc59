package dev.opcua.stack.server.session;

/**
 * Learns when sessions end, so that the layers that keep state per session (subscriptions, Part 4,
 * 5.6.4 and 5.13.7) can release or keep it.
 */
@FunctionalInterface
public interface SessionListener {

    /** Hears nothing. */
    SessionListener NONE = (session, deleteSubscriptions) -> { };

    /**
     * Called once per session, after it was marked closed and removed, on the thread that closed it (a
     * worker for CloseSession, the {@code opcua-session-timer} for a timeout, the caller of
     * {@link SessionManager#close()}). Must not block.
     *
     * @param deleteSubscriptions CloseSession's flag; true when the manager closes and when a session
     *        is closed after too many failed authentications; false on a timeout, so that the client
     *        can transfer the subscriptions to a new session until their lifetime ends
     */
    void sessionClosed(Session session, boolean deleteSubscriptions);
}
