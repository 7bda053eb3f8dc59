package dev.opcua.stack.server.transport;

import dev.opcua.stack.core.config.InvalidSettingException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Reverse connect (Part 6, 7.1.3): the clients the server dials and how. For each target the server keeps
 * {@code readyConnections} connections open that have sent their ReverseHello and wait for the client's Hello;
 * when a client takes one (its Hello arrives) the server dials the next, and a connection that fails or closes
 * unused is dialled again after {@code retryInterval}.
 *
 * @param serverUri the server's ApplicationUri, the ReverseHello's ServerUri
 * @param targets the clients to dial; empty for none
 * @param retryInterval the wait before dialling again after a failure or an unused connection's close
 * @param readyConnections connections kept waiting per client, at least 1
 */
public record ReverseConnectSettings(String serverUri, List<ReverseConnectTarget> targets, Duration retryInterval,
        int readyConnections) {

    /** The retry interval when none is given. */
    public static final Duration DEFAULT_RETRY_INTERVAL = Duration.ofSeconds(5);

    /** No reverse connect. */
    public static final ReverseConnectSettings NONE = new ReverseConnectSettings("", List.of(),
            DEFAULT_RETRY_INTERVAL, 1);

    /** @throws InvalidSettingException naming {@code reverseConnect.retryInterval} or {@code reverseConnect.readyConnections} */
    public ReverseConnectSettings {
        Objects.requireNonNull(serverUri, "serverUri");
        targets = List.copyOf(targets);
        Objects.requireNonNull(retryInterval, "retryInterval");
        if (retryInterval.toMillis() < 1) {
            throw new InvalidSettingException("reverseConnect.retryInterval", retryInterval, "must be 1 ms or more");
        }
        if (readyConnections < 1 || readyConnections > 64) {
            throw new InvalidSettingException("reverseConnect.readyConnections", readyConnections,
                    "must be 1 to 64");
        }
    }

    /** Whether there is a client to dial. */
    public boolean enabled() {
        return !targets.isEmpty();
    }
}
