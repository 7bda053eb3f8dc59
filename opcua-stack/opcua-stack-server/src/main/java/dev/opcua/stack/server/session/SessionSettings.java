package dev.opcua.stack.server.session;

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
 * @param maxFailedAuthenticationAttempts failed ActivateSession attempts allowed per session: the
 *        attempt that reaches this count closes the session, so that a token cannot be used to guess
 *        passwords without bound (the client must create a new session, which costs a round trip and
 *        counts towards {@code maxSessions})
 */
public record SessionSettings(int maxSessions, Duration minSessionTimeout, Duration maxSessionTimeout,
        int maxFailedAuthenticationAttempts) {

    /** 100 sessions, timeouts from 10 s to 1 h, 5 failed authentications per session. */
    public static final SessionSettings DEFAULT = new SessionSettings(100, Duration.ofSeconds(10),
            Duration.ofHours(1), 5);

    /** @throws IllegalArgumentException when a limit is not positive or min exceeds max */
    public SessionSettings {
        Objects.requireNonNull(minSessionTimeout, "minSessionTimeout");
        Objects.requireNonNull(maxSessionTimeout, "maxSessionTimeout");
        if (maxSessions < 1) {
            throw new IllegalArgumentException("maxSessions must be at least 1, was " + maxSessions);
        }
        if (minSessionTimeout.isNegative() || minSessionTimeout.isZero()) {
            throw new IllegalArgumentException("minSessionTimeout must be positive, was " + minSessionTimeout);
        }
        if (maxSessionTimeout.compareTo(minSessionTimeout) < 0) {
            throw new IllegalArgumentException("maxSessionTimeout " + maxSessionTimeout
                    + " is below minSessionTimeout " + minSessionTimeout);
        }
        if (maxFailedAuthenticationAttempts < 1) {
            throw new IllegalArgumentException(
                    "maxFailedAuthenticationAttempts must be at least 1, was " + maxFailedAuthenticationAttempts);
        }
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
