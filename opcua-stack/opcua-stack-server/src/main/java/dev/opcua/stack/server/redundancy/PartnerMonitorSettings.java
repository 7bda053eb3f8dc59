package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.config.InvalidSettingException;
import java.time.Duration;
import java.util.Objects;

/**
 * How a server of a Warm, Hot or HotAndMirrored set watches its partners ({@link PartnerMonitor}).
 *
 * @param enabled whether the server watches its partners; a Cold set never does (its backup is not running)
 * @param interval how often each partner is read, and so how soon RedundantServerArray shows a change
 * @param requestTimeout how long one read of a partner may take before the partner counts as unreachable
 */
public record PartnerMonitorSettings(boolean enabled, Duration interval, Duration requestTimeout) {

    /** Enabled, every 2 s, 5 s per read. */
    public static final PartnerMonitorSettings DEFAULT = new PartnerMonitorSettings(true, Duration.ofSeconds(2),
            Duration.ofSeconds(5));

    /** Not watching: RedundantServerArray lists what {@link RedundancyObject#reportPartner} was told. */
    public static final PartnerMonitorSettings DISABLED = new PartnerMonitorSettings(false, Duration.ofSeconds(2),
            Duration.ofSeconds(5));

    /** @throws InvalidSettingException naming {@code partnerMonitor.interval} or {@code partnerMonitor.requestTimeout} */
    public PartnerMonitorSettings {
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        if (interval.compareTo(Duration.ofMillis(100)) < 0 || interval.compareTo(Duration.ofHours(1)) > 0) {
            throw new InvalidSettingException("partnerMonitor.interval", interval, "must be 100 ms to 1 h");
        }
        if (requestTimeout.compareTo(Duration.ofMillis(100)) < 0 || requestTimeout.compareTo(Duration.ofMinutes(1)) > 0) {
            throw new InvalidSettingException("partnerMonitor.requestTimeout", requestTimeout,
                    "must be 100 ms to 1 min");
        }
    }

    /** These settings with another interval. */
    public PartnerMonitorSettings withInterval(Duration value) {
        return new PartnerMonitorSettings(enabled, value, requestTimeout);
    }
}
