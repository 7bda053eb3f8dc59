package dev.opcua.stack.server.session;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of the session layer, for monitoring (the Spring layer binds them to Micrometer): sessions
 * created, closed by CloseSession, timed out, refused at CreateSession (BadTooManySessions), failed
 * authentications, and lock-outs after too many of them. The number of sessions open now is
 * {@link SessionManager#currentSessions()}.
 */
public final class SessionCounters {

    private final LongAdder created = new LongAdder();
    private final LongAdder closed = new LongAdder();
    private final LongAdder timedOut = new LongAdder();
    private final LongAdder timedOutUnactivated = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder failedAuthentications = new LongAdder();
    private final LongAdder lockedOut = new LongAdder();

    SessionCounters() {
    }

    void created() {
        created.increment();
    }

    void closed() {
        closed.increment();
    }

    void timedOut(boolean activated) {
        timedOut.increment();
        if (!activated) {
            timedOutUnactivated.increment();
        }
    }

    void rejected() {
        rejected.increment();
    }

    void failedAuthentication() {
        failedAuthentications.increment();
    }

    void lockedOut() {
        lockedOut.increment();
    }

    /** Sessions created. */
    public long sessionsCreated() {
        return created.sum();
    }

    /** Sessions closed by CloseSession. */
    public long sessionsClosed() {
        return closed.sum();
    }

    /** Sessions closed because no request came for their revised timeout. */
    public long sessionTimeouts() {
        return timedOut.sum();
    }

    /**
     * Of {@link #sessionTimeouts()}, the sessions never activated: created and abandoned, the mark of a
     * CreateSession flood.
     */
    public long unactivatedSessionTimeouts() {
        return timedOutUnactivated.sum();
    }

    /** CreateSession requests refused because maxSessions were open. */
    public long sessionsRejected() {
        return rejected.sum();
    }

    /**
     * ActivateSession requests whose user token failed its proof (decryption, server nonce, user
     * certificate trust or signature) or was refused by the identity validator.
     */
    public long failedAuthentications() {
        return failedAuthentications.sum();
    }

    /**
     * Lock-outs for reaching maxFailedAuthenticationAttempts: client certificates locked out (secure
     * channels) and sessions closed (SecurityPolicy None).
     */
    public long sessionsLockedOut() {
        return lockedOut.sum();
    }
}
