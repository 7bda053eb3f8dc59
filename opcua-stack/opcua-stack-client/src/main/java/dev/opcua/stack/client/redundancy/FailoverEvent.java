package dev.opcua.stack.client.redundancy;

import java.time.Duration;
import java.time.Instant;

/**
 * One completed failover.
 *
 * @param from the endpoint URL of the server left
 * @param to the endpoint URL of the server the client is connected to now
 * @param reason why
 * @param started when the connection was lost ({@link FailoverReason#SERVER_LOST}) or the lower
 *        ServiceLevel was seen ({@link FailoverReason#SERVICE_LEVEL})
 * @param duration from {@code started} to the session on {@code to} being ready, its subscriptions
 *        re-created (the client CONNECTED again)
 * @param notificationsPossiblyLost sequence numbers the client's subscriptions saw missing and could not
 *        fetch with Republish between {@code started} and now; values that changed on the old server
 *        after its last Publish response are not visible to the client at all (the re-created monitored
 *        items report the current value first)
 * @param path how the session and its subscriptions reached {@code to}
 */
public record FailoverEvent(String from, String to, FailoverReason reason, Instant started, Duration duration,
        long notificationsPossiblyLost, FailoverPath path) {

    /** An event whose path is not known (tests, older callers): {@link FailoverPath#SUBSCRIPTIONS_RECREATED}. */
    public FailoverEvent(String from, String to, FailoverReason reason, Instant started, Duration duration,
            long notificationsPossiblyLost) {
        this(from, to, reason, started, duration, notificationsPossiblyLost, FailoverPath.SUBSCRIPTIONS_RECREATED);
    }
}
