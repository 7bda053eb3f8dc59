package dev.opcua.stack.core.transport.uasc;

/**
 * The tokens under which a client accepts MSG chunks (Part 6, 6.7.4): the current one, and after a
 * renewal the previous one until the server first uses the new token or the old one has expired,
 * with the 25 % grace of Part 4, 5.5.2.1 ("Clients should accept Messages secured by an expired
 * SecurityToken for up to 25 % of the token lifetime").
 *
 * <p>Not thread-safe: owned by the channel's event loop.
 */
final class ClientSecurityTokens {

    private static final long NONE = -1;

    private long currentId = NONE;
    private long currentSinceNanos;
    private long currentLifetimeNanos;
    private long previousId = NONE;
    private long previousUntilNanos;

    /** A new token from an OPN response; the current one becomes the previous one. */
    void roll(long tokenId, long lifetimeMillis, long nowNanos) {
        if (currentId != NONE) {
            previousId = currentId;
            previousUntilNanos = currentSinceNanos + currentLifetimeNanos + currentLifetimeNanos / 4;
        }
        currentId = tokenId;
        currentSinceNanos = nowNanos;
        currentLifetimeNanos = lifetimeMillis * 1_000_000L;
    }

    /**
     * Whether a chunk secured with {@code tokenId} is acceptable now. The first chunk under the
     * current token retires the previous one.
     */
    boolean accept(long tokenId, long nowNanos) {
        if (tokenId == currentId && currentId != NONE) {
            previousId = NONE;
            return true;
        }
        return tokenId == previousId && previousId != NONE && nowNanos - previousUntilNanos < 0;
    }

    long currentId() {
        return currentId;
    }

    /** Whether the previous token is still accepted (the server has not used the new one yet). */
    boolean hasPrevious() {
        return previousId != NONE;
    }
}
