package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.config.InvalidSettingException;
import java.time.Duration;
import java.util.Objects;

/**
 * How a HotAndMirrored server writes its sessions to the {@link SessionStateStore} ({@link SessionMirror}).
 *
 * @param interval how often what changed of the sessions is written: the most a crash can lose of what the server
 *        queued and sent since the last write
 * @param batchSize most sessions written in one call (one transaction)
 * @param maxPendingBytes most bytes of changes a write may carry while the store is away (they grow with what
 *        changed since its last success); beyond it they are dropped (counted and logged) and every session is
 *        written anew, whole, when the store returns
 * @param standbyWindow how far back the values this server samples for its partners' sessions reach (standby
 *        sampling, see {@link SessionMirror}): the values a takeover can add after the stored state; it should
 *        exceed the time a failover takes. Zero turns standby sampling off
 */
public record SessionMirrorSettings(Duration interval, int batchSize, long maxPendingBytes, Duration standbyWindow) {

    /** The standby window when none is given. */
    public static final Duration DEFAULT_STANDBY_WINDOW = Duration.ofSeconds(5);
    /** The longest standby window. */
    public static final Duration MAX_STANDBY_WINDOW = Duration.ofMinutes(10);

    /** Every 100 ms, 100 sessions a batch, 64 MiB waiting at most, 5 s of standby values. */
    public static final SessionMirrorSettings DEFAULT = new SessionMirrorSettings(Duration.ofMillis(100), 100,
            64L << 20, DEFAULT_STANDBY_WINDOW);

    /** @throws InvalidSettingException naming the setting that is out of range */
    public SessionMirrorSettings {
        Objects.requireNonNull(interval, "interval");
        if (interval.toMillis() < 1 || interval.compareTo(Duration.ofMinutes(1)) > 0) {
            throw new InvalidSettingException("sessionMirror.interval", interval, "must be 1 ms to 1 min");
        }
        if (batchSize < 1) {
            throw new InvalidSettingException("sessionMirror.batchSize", batchSize, "must be 1 or more");
        }
        if (maxPendingBytes < 1) {
            throw new InvalidSettingException("sessionMirror.maxPendingBytes", maxPendingBytes, "must be 1 or more");
        }
        Objects.requireNonNull(standbyWindow, "standbyWindow");
        if (standbyWindow.isNegative() || standbyWindow.compareTo(MAX_STANDBY_WINDOW) > 0) {
            throw new InvalidSettingException("sessionMirror.standbyWindow", standbyWindow,
                    "must be 0 (no standby sampling) to 10 min");
        }
    }

    /** These settings with the default standby window. */
    public SessionMirrorSettings(Duration interval, int batchSize, long maxPendingBytes) {
        this(interval, batchSize, maxPendingBytes, DEFAULT_STANDBY_WINDOW);
    }

    /** These settings with another interval. */
    public SessionMirrorSettings withInterval(Duration value) {
        return new SessionMirrorSettings(value, batchSize, maxPendingBytes, standbyWindow);
    }

    /** These settings with another standby window; zero turns standby sampling off. */
    public SessionMirrorSettings withStandbyWindow(Duration value) {
        return new SessionMirrorSettings(interval, batchSize, maxPendingBytes, value);
    }
}
