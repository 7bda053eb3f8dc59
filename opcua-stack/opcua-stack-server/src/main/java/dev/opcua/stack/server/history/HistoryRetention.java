package dev.opcua.stack.server.history;

import java.time.Duration;
import java.util.Objects;

/**
 * How much history a store keeps ({@link HistoryStore#trim}): values no older than {@code maxAge}
 * and at most {@code maxBytes} of storage, the oldest values going first.
 *
 * @param maxAge the oldest value kept, by its time; {@link Duration#ZERO} for no limit
 * @param maxBytes the most bytes the store may hold, 0 for no limit
 */
public record HistoryRetention(Duration maxAge, long maxBytes) {

    /** Keeps everything. */
    public static final HistoryRetention UNLIMITED = new HistoryRetention(Duration.ZERO, 0);

    public HistoryRetention {
        Objects.requireNonNull(maxAge, "maxAge");
        if (maxAge.isNegative()) {
            throw new IllegalArgumentException("maxAge must not be negative (0 = no limit), was " + maxAge);
        }
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must be >= 0 (0 = no limit), was " + maxBytes);
        }
    }

    /** Whether nothing is ever deleted. */
    public boolean isUnlimited() {
        return maxAge.isZero() && maxBytes == 0;
    }

    /** The oldest time kept at {@code nowTicks}, or Long.MIN_VALUE without an age limit. */
    public long oldestTicks(long nowTicks) {
        if (maxAge.isZero()) {
            return Long.MIN_VALUE;
        }
        long ageTicks = maxAge.getSeconds() > Long.MAX_VALUE / 10_000_000L / 2 ? Long.MAX_VALUE / 2
                : maxAge.getSeconds() * 10_000_000L + maxAge.getNano() / 100;
        return nowTicks - ageTicks;
    }
}
