package dev.opcua.stack.server.session;

import dev.opcua.stack.core.config.InvalidSettingException;
import java.time.Duration;
import java.util.Objects;

/**
 * Limits of the sessions a server keeps (Part 4, 5.6.2 CreateSession, 5.6.3 ActivateSession).
 *
 * @param maxSessions sessions open at once (created or activated); one more is refused with
 *        BadTooManySessions
 * @param minSessionTimeout the shortest revised session timeout; shorter requests are raised to it
 * @param maxSessionTimeout the longest revised session timeout; longer requests, and 0 ("no preference"),
 *        get it
 * @param maxFailedAuthenticationAttempts failed user authentications allowed before a lock-out; 0
 *        disables the lock-out. Counted per client application certificate on secure channels: the
 *        failure that reaches this count refuses that client's ActivateSession requests for
 *        {@code failedAuthenticationLockout}. On SecurityPolicy None channels, where a client has no
 *        certificate, counted per session: the failure that reaches the count closes the session (the
 *        client must create a new one, which costs a round trip and counts towards {@code maxSessions})
 * @param failedAuthenticationLockout how long a client certificate stays locked out; also how long a
 *        count of failures is remembered without another failure
 */
public record SessionSettings(int maxSessions, Duration minSessionTimeout, Duration maxSessionTimeout,
        int maxFailedAuthenticationAttempts, Duration failedAuthenticationLockout) {

    /** Lock-out of {@link #DEFAULT}. */
    public static final Duration DEFAULT_LOCKOUT = Duration.ofMinutes(1);

    /** 100 sessions, timeouts from 10 s to 1 h, 5 failed authentications, then 1 minute locked out. */
    public static final SessionSettings DEFAULT = new SessionSettings(100, Duration.ofSeconds(10),
            Duration.ofHours(1), 5, DEFAULT_LOCKOUT);

    /**
     * @throws InvalidSettingException {@code sessionSettings.<component>} when a limit is out of range or
     *         the minimum timeout exceeds the maximum
     */
    public SessionSettings {
        Objects.requireNonNull(minSessionTimeout, "minSessionTimeout");
        Objects.requireNonNull(maxSessionTimeout, "maxSessionTimeout");
        Objects.requireNonNull(failedAuthenticationLockout, "failedAuthenticationLockout");
        if (maxSessions < 1) {
            throw invalid("maxSessions", maxSessions, "must be at least 1");
        }
        if (minSessionTimeout.isNegative() || minSessionTimeout.isZero()) {
            throw invalid("minSessionTimeout", minSessionTimeout, "must be positive");
        }
        if (maxSessionTimeout.compareTo(minSessionTimeout) < 0) {
            throw invalid("maxSessionTimeout", maxSessionTimeout,
                    "must be at least minSessionTimeout (" + minSessionTimeout + ")");
        }
        if (maxFailedAuthenticationAttempts < 0) {
            throw invalid("maxFailedAuthenticationAttempts", maxFailedAuthenticationAttempts,
                    "must be 0 (no lock-out) or more");
        }
        if (failedAuthenticationLockout.isNegative() || failedAuthenticationLockout.isZero()) {
            throw invalid("failedAuthenticationLockout", failedAuthenticationLockout, "must be positive");
        }
    }

    private static InvalidSettingException invalid(String name, Object value, String rule) {
        return new InvalidSettingException("sessionSettings." + name, value, rule);
    }

    /** Settings with the default lock-out of one minute. */
    public SessionSettings(int maxSessions, Duration minSessionTimeout, Duration maxSessionTimeout,
            int maxFailedAuthenticationAttempts) {
        this(maxSessions, minSessionTimeout, maxSessionTimeout, maxFailedAuthenticationAttempts, DEFAULT_LOCKOUT);
    }

    /** Whether failed authentications lead to a lock-out. */
    public boolean locksOut() {
        return maxFailedAuthenticationAttempts > 0;
    }

    /**
     * The revised timeout in milliseconds for a requested one (Part 4, 5.6.2: "the Server may revise
     * it"): clamped to [min, max]; 0, a negative value or NaN ask for no particular value and get the max.
     */
    public double reviseTimeout(double requestedMillis) {
        double max = maxSessionTimeout.toMillis();
        if (!(requestedMillis > 0)) { // also NaN
            return max;
        }
        return Math.min(max, Math.max(minSessionTimeout.toMillis(), requestedMillis));
    }
}
