package dev.opcua.stack.client.transport.uasc;

import dev.opcua.stack.core.security.ChunkCrypto;

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
    private ChunkCrypto currentCrypto;
    private ChunkCrypto previousCrypto;

    /**
     * A new token from an OPN response, with the crypto that verifies the server's chunks under it;
     * the current one becomes the previous one.
     */
    void roll(long tokenId, long lifetimeMillis, long nowNanos, ChunkCrypto receiveCrypto) {
        if (currentId != NONE) {
            previousId = currentId;
            previousCrypto = currentCrypto;
            previousUntilNanos = currentSinceNanos + currentLifetimeNanos + currentLifetimeNanos / 4;
        }
        currentId = tokenId;
        currentCrypto = receiveCrypto;
        currentSinceNanos = nowNanos;
        currentLifetimeNanos = lifetimeMillis * 1_000_000L;
    }

    /**
     * The crypto of the token a chunk secured with {@code tokenId} uses, or null when that token is not
     * acceptable now. The first chunk under the current token retires the previous one.
     */
    ChunkCrypto accept(long tokenId, long nowNanos) {
        if (tokenId == currentId && currentId != NONE) {
            previousId = NONE;
            previousCrypto = null;
            return currentCrypto;
        }
        return tokenId == previousId && previousId != NONE && nowNanos - previousUntilNanos < 0 ? previousCrypto
                : null;
    }

    long currentId() {
        return currentId;
    }

    /** Whether the previous token is still accepted (the server has not used the new one yet). */
    boolean hasPrevious() {
        return previousId != NONE;
    }
}
