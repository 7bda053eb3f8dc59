package dev.opcua.stack.server.session;

import dev.opcua.stack.core.types.builtin.ByteString;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Failed user authentications per client application certificate (keyed by SHA-1 thumbprint), and the
 * lock-out they lead to: the failure that reaches {@code maxAttempts} locks the client out for the
 * lock-out duration; a success forgets its failures; a count not added to for that duration starts
 * again. Part 4, 5.6.3 leaves the measure against repeated guessing to the server.
 *
 * <p>Only clients whose certificate the secure channel trusted get here, yet the map is bounded:
 * beyond {@link #MAX_CLIENTS} entries, stale ones are dropped first, and if still full the new client's
 * failures are not tracked.
 */
final class ClientLockout {

    /** Clients tracked at most. */
    static final int MAX_CLIENTS = 10_000;

    /** One client's state; guarded by the map's per-key atomicity of {@code compute}. */
    private static final class Entry {
        int failures;
        long lastFailureNanos;
        boolean locked;
        long lockedUntilNanos;
    }

    private final int maxAttempts;
    private final long lockoutNanos;
    private final Map<ByteString, Entry> clients = new ConcurrentHashMap<>();

    ClientLockout(int maxAttempts, Duration lockout) {
        this.maxAttempts = maxAttempts;
        this.lockoutNanos = lockout.toNanos();
    }

    /** Nanoseconds the client stays locked out from {@code now}; 0 when it is not locked out. */
    long remainingNanos(ByteString thumbprint, long now) {
        long[] remaining = {0};
        clients.computeIfPresent(thumbprint, (key, entry) -> {
            if (entry.locked && entry.lockedUntilNanos - now > 0) {
                remaining[0] = entry.lockedUntilNanos - now;
                return entry;
            }
            return entry.locked ? null : entry; // an expired lock-out starts afresh
        });
        return remaining[0];
    }

    /** Counts a failure; true when it starts a lock-out. */
    boolean failed(ByteString thumbprint, long now) {
        if (clients.size() >= MAX_CLIENTS && !clients.containsKey(thumbprint)) {
            dropStale(now);
            if (clients.size() >= MAX_CLIENTS) {
                return false;
            }
        }
        boolean[] started = {false};
        clients.compute(thumbprint, (key, entry) -> {
            if (entry == null || stale(entry, now)) {
                entry = new Entry();
            }
            if (entry.locked) {
                return entry; // a request that raced the lock-out: the lock-out stands as it is
            }
            entry.failures++;
            entry.lastFailureNanos = now;
            if (entry.failures >= maxAttempts) {
                entry.locked = true;
                entry.lockedUntilNanos = now + lockoutNanos;
                started[0] = true;
            }
            return entry;
        });
        return started[0];
    }

    /** Forgets the client's failures after a successful authentication. */
    void succeeded(ByteString thumbprint) {
        clients.remove(thumbprint);
    }

    /** Clients tracked now, for tests. */
    int size() {
        return clients.size();
    }

    private boolean stale(Entry entry, long now) {
        return entry.locked ? entry.lockedUntilNanos - now <= 0 : now - entry.lastFailureNanos >= lockoutNanos;
    }

    private void dropStale(long now) {
        clients.entrySet().removeIf(e -> stale(e.getValue(), now));
    }
}
