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
 */
public record SessionMirrorSettings(Duration interval, int batchSize, long maxPendingBytes) {

    /** Every 100 ms, 100 sessions a batch, 64 MiB waiting at most. */
    public static final SessionMirrorSettings DEFAULT = new SessionMirrorSettings(Duration.ofMillis(100), 100,
            64L << 20);

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
    }

    /** These settings with another interval. */
    public SessionMirrorSettings withInterval(Duration value) {
        return new SessionMirrorSettings(value, batchSize, maxPendingBytes);
    }
}
