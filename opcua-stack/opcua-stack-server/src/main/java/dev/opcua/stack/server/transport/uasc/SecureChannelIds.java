package dev.opcua.stack.server.transport.uasc;

import java.security.SecureRandom;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hands out the SecureChannelIds of one server (Part 6, 6.7.2.2, Table 56: "assigned by the Server").
 *
 * <p>The sequence starts at a random value, so that the first id after a restart is "likely to be
 * unique" and a client cannot reuse a stale channel; it counts up through the UInt32 range, skips 0
 * (the id of an OPN that asks for a new channel, Part 6, 6.7.4) and every id still in use, so ids are
 * unique among live channels. Thread-safe and lock-free: the handlers of all event loops share one
 * instance.
 */
public final class SecureChannelIds {

    private static final long UINT32_MASK = 0xFFFF_FFFFL;

    private final AtomicLong counter;
    private final Set<Long> live = ConcurrentHashMap.newKeySet();

    /** Ids starting at a random value. */
    public SecureChannelIds() {
        this(new SecureRandom().nextInt());
    }

    /** Ids starting after {@code seed} (its low 32 bits): for tests that need known ids. */
    public SecureChannelIds(long seed) {
        this.counter = new AtomicLong(seed & UINT32_MASK);
    }

    /** A new id, never 0 and not held by a live channel; {@link #release} it when the channel ends. */
    public long acquire() {
        while (true) {
            long id = counter.incrementAndGet() & UINT32_MASK;
            // live holds at most maxConnections ids, so this finds a free one within that many steps.
            if (id != 0 && live.add(id)) {
                return id;
            }
        }
    }

    /** Returns an id to the pool once its channel is closed. */
    public void release(long id) {
        live.remove(id);
    }

    /** Ids held by live channels. */
    public int liveCount() {
        return live.size();
    }
}
