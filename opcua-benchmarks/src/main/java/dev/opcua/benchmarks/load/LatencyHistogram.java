package dev.opcua.benchmarks.load;

/**
 * Latencies in fixed log-linear buckets (64 per power of two, under 1.6 % error), in nanoseconds.
 * Not thread-safe: one per request chain, merged after the chains have stopped.
 */
final class LatencyHistogram {

    private static final int SUB_BITS = 6;
    private static final int SUB = 1 << SUB_BITS;

    private final long[] counts = new long[64 * SUB];
    private long total;
    private long max;

    void record(long nanos) {
        long v = Math.max(0, nanos);
        counts[index(v)]++;
        total++;
        if (v > max) {
            max = v;
        }
    }

    void add(LatencyHistogram other) {
        for (int i = 0; i < counts.length; i++) {
            counts[i] += other.counts[i];
        }
        total += other.total;
        max = Math.max(max, other.max);
    }

    long count() {
        return total;
    }

    long max() {
        return max;
    }

    /** The upper bound of the bucket holding the given quantile (0..1); 0 when empty. */
    long quantile(double q) {
        if (total == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(q * total));
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return Math.min(upperBound(i), max);
            }
        }
        return max;
    }

    /** Values below 64 get their own bucket; above, the top 6 bits after the leading one pick the bucket. */
    static int index(long v) {
        if (v < SUB) {
            return (int) v;
        }
        int shift = 63 - Long.numberOfLeadingZeros(v) - SUB_BITS;
        int sub = (int) (v >>> shift) & (SUB - 1);
        return (shift + 1) * SUB + sub;
    }

    static long upperBound(int index) {
        int exponent = index / SUB;
        int sub = index % SUB;
        if (exponent == 0) {
            return sub;
        }
        return ((long) (SUB + sub) << (exponent - 1)) + (1L << (exponent - 1)) - 1;
    }
}
