package dev.opcua.stack.server.transport.uasc;

import dev.opcua.stack.core.security.ChunkCrypto;
import dev.opcua.stack.core.types.builtin.DateTime;
import java.util.concurrent.TimeUnit;

/**
 * The security tokens of one server-side secure channel (Part 4, 5.5.2 and Part 6, 6.7.4): the
 * current token, which secures what the server sends, and the token of a pending renewal, which the
 * server accepts but does not use until the client does.
 *
 * <ul>
 *   <li>TokenIds count up from 1 per channel and are never 0.</li>
 *   <li>The revised lifetime is the requested one, clamped to [{@link #MIN_LIFETIME_MILLIS}, the
 *       server's maximum]; a request for 0 gets the maximum.</li>
 *   <li>A token is accepted until its lifetime plus a quarter has passed: Part 4, 5.5.2.1 lets a
 *       client renew as late as 75 % of the lifetime and accept an expired token for another 25 %;
 *       the same grace covers a renewal that is in flight when the lifetime ends.</li>
 *   <li>Renewal: the new token becomes current when the client first uses it, or when the current
 *       one expires; the old one is then no longer accepted (Part 6, 6.7.4).</li>
 * </ul>
 *
 * <p>Owned by the channel's event loop; not thread-safe.
 */
final class ServerSecurityTokens {

    /** Shortest lifetime granted, so that a client cannot make the server renew every few milliseconds. */
    static final long MIN_LIFETIME_MILLIS = 10_000;

    /**
     * One token: its id, the granted lifetime, when it was created (for the response), the
     * event-loop clock reading after which it is no longer accepted, and the crypto of its keys for
     * what the server sends and what it receives (Part 6, 6.7.5).
     */
    record Token(long id, long lifetimeMillis, DateTime createdAt, long acceptedUntilNanos, ChunkCrypto sendCrypto,
            ChunkCrypto receiveCrypto) {
    }

    private final long maxLifetimeMillis;
    private long lastId;
    private Token current;
    private Token pending;

    /** @param maxLifetimeMillis the server's TransportQuotas.securityTokenLifetime */
    ServerSecurityTokens(long maxLifetimeMillis) {
        this.maxLifetimeMillis = maxLifetimeMillis;
    }

    /** The lifetime granted for {@code requestedMillis} (a UInt32). */
    long revise(long requestedMillis) {
        if (requestedMillis <= 0) {
            return maxLifetimeMillis;
        }
        long min = Math.min(MIN_LIFETIME_MILLIS, maxLifetimeMillis);
        return Math.max(min, Math.min(requestedMillis, maxLifetimeMillis));
    }

    /** Creates the first token of the channel (OPN Issue); it is current at once. */
    Token issue(long requestedMillis, long nowNanos, ChunkCrypto send, ChunkCrypto receive) {
        current = newToken(requestedMillis, nowNanos, send, receive);
        pending = null;
        return current;
    }

    /**
     * Creates the token of a renewal (OPN Renew); it stays pending until used or until the current
     * token expires. A second renewal before the first is used replaces the pending token.
     */
    Token renew(long requestedMillis, long nowNanos, ChunkCrypto send, ChunkCrypto receive) {
        pending = newToken(requestedMillis, nowNanos, send, receive);
        return pending;
    }

    /** The token that secures what the server sends. */
    Token current() {
        return current;
    }

    /** The token of a renewal the client has not used yet, or null. */
    Token pending() {
        return pending;
    }

    /** The current or the pending token with this id, or null; changes nothing. */
    Token find(long tokenId) {
        if (current != null && tokenId == current.id) {
            return current;
        }
        return pending != null && tokenId == pending.id ? pending : null;
    }

    /**
     * Whether a chunk secured with {@code tokenId} is accepted: the current token, or the pending
     * one, which then becomes current. The caller checks with {@link #current()} whether it changed.
     */
    boolean accept(long tokenId) {
        if (current != null && tokenId == current.id) {
            return true;
        }
        if (pending != null && tokenId == pending.id) {
            current = pending;
            pending = null;
            return true;
        }
        return false;
    }

    /**
     * The current token's acceptance ended: the pending token, if any, becomes current.
     *
     * @return whether a pending token took over; if not, the channel has no valid token left
     */
    boolean expireCurrent() {
        current = pending;
        pending = null;
        return current != null;
    }

    /** The id the next issued or renewed token will get. */
    long nextId() {
        long id = (lastId + 1) & 0xFFFF_FFFFL;
        return id == 0 ? 1 : id;
    }

    private Token newToken(long requestedMillis, long nowNanos, ChunkCrypto send, ChunkCrypto receive) {
        long lifetime = revise(requestedMillis);
        long id = ++lastId & 0xFFFF_FFFFL;
        if (id == 0) {
            id = lastId = 1;
        }
        long acceptedFor = TimeUnit.MILLISECONDS.toNanos(lifetime + lifetime / 4);
        return new Token(id, lifetime, DateTime.now(), nowNanos + acceptedFor, send, receive);
    }
}
