package dev.opcua.stack.server.alarms;

import java.util.ArrayList;
import java.util.List;

/**
 * The limits of a limit alarm (Part 9, 5.8.18 LimitAlarmType: HighHighLimit, HighLimit, LowLimit,
 * LowLowLimit) and the Severity the alarm takes in each limit state. A limit that is not set is
 * {@code NaN}: the instance then has neither the limit property nor the state. At least one limit is
 * set, and those set are ordered LowLow &lt; Low &lt; High &lt; HighHigh.
 *
 * <p>A value at a limit counts as beyond it: {@code value >= HighLimit} is High.
 */
public record Limits(double highHigh, int highHighSeverity, double high, int highSeverity, double low,
        int lowSeverity, double lowLow, int lowLowSeverity) {

    /** Default severities, high for the outer limits and medium for the inner ones. */
    public static final int DEFAULT_HIGH_HIGH_SEVERITY = 900;
    public static final int DEFAULT_HIGH_SEVERITY = 600;

    public Limits {
        List<Double> ordered = new ArrayList<>(4);
        for (double limit : new double[] {lowLow, low, high, highHigh}) {
            if (Double.isInfinite(limit)) {
                throw new IllegalArgumentException("a limit must be finite or NaN (not set), was " + limit);
            }
            if (!Double.isNaN(limit)) {
                if (!ordered.isEmpty() && ordered.get(ordered.size() - 1) >= limit) {
                    throw new IllegalArgumentException("limits must be ordered LowLow < Low < High < HighHigh, were "
                            + describe(highHigh, high, low, lowLow));
                }
                ordered.add(limit);
            }
        }
        if (ordered.isEmpty()) {
            throw new IllegalArgumentException("a limit alarm needs at least one limit (Part 9, 5.8.18)");
        }
        for (int severity : new int[] {highHighSeverity, highSeverity, lowSeverity, lowLowSeverity}) {
            Condition.checkSeverity(severity);
        }
    }

    private static String describe(double highHigh, double high, double low, double lowLow) {
        return "HighHigh " + highHigh + ", High " + high + ", Low " + low + ", LowLow " + lowLow;
    }

    public static Builder builder() {
        return new Builder();
    }

    public boolean hasHighHigh() {
        return !Double.isNaN(highHigh);
    }

    public boolean hasHigh() {
        return !Double.isNaN(high);
    }

    public boolean hasLow() {
        return !Double.isNaN(low);
    }

    public boolean hasLowLow() {
        return !Double.isNaN(lowLow);
    }

    /** Whether the value is at or beyond the limit of this state (false when the limit is not set). */
    public boolean exceeds(LimitState state, double value) {
        return switch (state) {
            case HIGH_HIGH -> hasHighHigh() && value >= highHigh;
            case HIGH -> hasHigh() && value >= high;
            case LOW -> hasLow() && value <= low;
            case LOW_LOW -> hasLowLow() && value <= lowLow;
        };
    }

    /** Whether the limit of this state is set. */
    public boolean has(LimitState state) {
        return !Double.isNaN(limit(state));
    }

    public double limit(LimitState state) {
        return switch (state) {
            case HIGH_HIGH -> highHigh;
            case HIGH -> high;
            case LOW -> low;
            case LOW_LOW -> lowLow;
        };
    }

    public int severity(LimitState state) {
        return switch (state) {
            case HIGH_HIGH -> highHighSeverity;
            case HIGH -> highSeverity;
            case LOW -> lowSeverity;
            case LOW_LOW -> lowLowSeverity;
        };
    }

    /**
     * The one state of an exclusive limit alarm (Part 9, 5.8.19): the outermost limit the value is
     * at or beyond, or null when it is within all limits.
     */
    public LimitState exclusiveState(double value) {
        for (LimitState state : new LimitState[] {LimitState.HIGH_HIGH, LimitState.HIGH, LimitState.LOW_LOW,
                LimitState.LOW}) {
            if (exceeds(state, value)) {
                return state;
            }
        }
        return null;
    }

    /** Collects limits; severities default to 900 for HighHigh and LowLow, 600 for High and Low. */
    public static final class Builder {
        private double highHigh = Double.NaN;
        private double high = Double.NaN;
        private double low = Double.NaN;
        private double lowLow = Double.NaN;
        private int highHighSeverity = DEFAULT_HIGH_HIGH_SEVERITY;
        private int highSeverity = DEFAULT_HIGH_SEVERITY;
        private int lowSeverity = DEFAULT_HIGH_SEVERITY;
        private int lowLowSeverity = DEFAULT_HIGH_HIGH_SEVERITY;

        private Builder() {
        }

        public Builder highHigh(double limit, int severity) {
            highHigh = limit;
            highHighSeverity = severity;
            return this;
        }

        public Builder highHigh(double limit) {
            highHigh = limit;
            return this;
        }

        public Builder high(double limit, int severity) {
            high = limit;
            highSeverity = severity;
            return this;
        }

        public Builder high(double limit) {
            high = limit;
            return this;
        }

        public Builder low(double limit, int severity) {
            low = limit;
            lowSeverity = severity;
            return this;
        }

        public Builder low(double limit) {
            low = limit;
            return this;
        }

        public Builder lowLow(double limit, int severity) {
            lowLow = limit;
            lowLowSeverity = severity;
            return this;
        }

        public Builder lowLow(double limit) {
            lowLow = limit;
            return this;
        }

        /** @throws IllegalArgumentException when no limit is set, the limits are out of order or a severity is outside 1..1000 */
        public Limits build() {
            return new Limits(highHigh, highHighSeverity, high, highSeverity, low, lowSeverity, lowLow, lowLowSeverity);
        }
    }
}
