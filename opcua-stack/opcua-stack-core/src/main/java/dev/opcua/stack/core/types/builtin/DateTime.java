package dev.opcua.stack.core.types.builtin;

import java.time.Instant;

/**
 * A UTC instant as 100-nanosecond ticks since 1601-01-01 (Part 6, 5.2.2.5).
 *
 * <p>Encoding rules from that section: instants at or before 1601-01-01 become 0 ({@link #MIN_VALUE},
 * which also means "no time"); instants at or after 9999-12-31 23:59:59 become {@code Long.MAX_VALUE}
 * ({@link #MAX_VALUE}). Ticks below 0 decode as MIN_VALUE.
 */
public final class DateTime implements Comparable<DateTime> {

    /** Ticks between 1601-01-01 and 1970-01-01. */
    static final long EPOCH_OFFSET_TICKS = 116_444_736_000_000_000L;
    private static final long TICKS_PER_SECOND = 10_000_000L;
    /** 9999-12-31T23:59:59Z in ticks: at or past this, the value is MAX_VALUE. */
    private static final long MAX_TICKS_THRESHOLD =
            (Instant.parse("9999-12-31T23:59:59Z").getEpochSecond()) * TICKS_PER_SECOND + EPOCH_OFFSET_TICKS;

    public static final DateTime MIN_VALUE = new DateTime(0L);
    public static final DateTime MAX_VALUE = new DateTime(Long.MAX_VALUE);

    private final long utcTicks;

    private DateTime(long utcTicks) {
        this.utcTicks = utcTicks;
    }

    /** DateTime from ticks as found on the wire, clamped to the rules of Part 6, 5.2.2.5. */
    public static DateTime ofTicks(long utcTicks) {
        if (utcTicks <= 0) {
            return MIN_VALUE;
        }
        if (utcTicks >= MAX_TICKS_THRESHOLD) {
            return MAX_VALUE;
        }
        return new DateTime(utcTicks);
    }

    public static DateTime ofInstant(Instant instant) {
        long seconds = instant.getEpochSecond();
        // Avoid overflow for instants far outside the representable range.
        if (seconds < -EPOCH_OFFSET_TICKS / TICKS_PER_SECOND) {
            return MIN_VALUE;
        }
        if (seconds >= (MAX_TICKS_THRESHOLD - EPOCH_OFFSET_TICKS) / TICKS_PER_SECOND) {
            return MAX_VALUE;
        }
        return ofTicks(seconds * TICKS_PER_SECOND + instant.getNano() / 100 + EPOCH_OFFSET_TICKS);
    }

    public static DateTime ofEpochMillis(long epochMillis) {
        return ofInstant(Instant.ofEpochMilli(epochMillis));
    }

    /** The current time, at the resolution of the system clock. */
    public static DateTime now() {
        return ofInstant(Instant.now());
    }

    /** The DateTime of the latest {@link #currentMillisecond()}: shared by every caller within that millisecond. */
    private static volatile DateTime lastMillisecond = MIN_VALUE;

    /**
     * The current time to the millisecond, one instance per millisecond however many callers share it:
     * for the timestamps a server or client stamps on every message (ResponseHeader, RequestHeader,
     * serverTimestamp, publishTime), where {@link #now()} would allocate an Instant and a DateTime each
     * time. Part 4 leaves the resolution of these timestamps to the application; UA DateTime ticks are
     * 100 ns, the millisecond is what the system clock reliably resolves on every platform.
     */
    public static DateTime currentMillisecond() {
        long ticks = System.currentTimeMillis() * 10_000L + EPOCH_OFFSET_TICKS;
        DateTime last = lastMillisecond;
        if (last.utcTicks != ticks) {
            last = ofTicks(ticks);
            lastMillisecond = last;
        }
        return last;
    }

    /** Ticks of 100 ns since 1601-01-01 UTC, as encoded. */
    public long utcTicks() {
        return utcTicks;
    }

    /** Whether this is the minimum value, which OPC UA uses for "no time". */
    public boolean isNull() {
        return utcTicks == 0L;
    }

    /** This instant as a Java Instant (MAX_VALUE maps to 9999-12-31T23:59:59.9999999Z). */
    public Instant toInstant() {
        long sinceEpoch = utcTicks - EPOCH_OFFSET_TICKS;
        if (utcTicks == Long.MAX_VALUE) {
            sinceEpoch = MAX_TICKS_THRESHOLD - EPOCH_OFFSET_TICKS + TICKS_PER_SECOND - 1;
        }
        return Instant.ofEpochSecond(Math.floorDiv(sinceEpoch, TICKS_PER_SECOND),
                Math.floorMod(sinceEpoch, TICKS_PER_SECOND) * 100);
    }

    public long toEpochMillis() {
        return toInstant().toEpochMilli();
    }

    @Override
    public int compareTo(DateTime other) {
        return Long.compare(utcTicks, other.utcTicks);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DateTime && ((DateTime) o).utcTicks == utcTicks;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(utcTicks);
    }

    @Override
    public String toString() {
        if (utcTicks == 0L) {
            return "DateTime.MIN_VALUE";
        }
        if (utcTicks == Long.MAX_VALUE) {
            return "DateTime.MAX_VALUE";
        }
        return toInstant().toString();
    }
}
