package dev.opcua.spring.boot.client;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.session.ClientSession;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.ClientSubscriptions;
import dev.opcua.stack.core.Failures;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import java.time.Instant;
import java.util.List;

/**
 * What an {@link OpcUaClient} shows of itself at one moment, read once so that health, the
 * {@code opcua} endpoint and logs tell the same story.
 *
 * @param endpointUrl the configured endpoint URL
 * @param state CONNECTING, CONNECTED, RECONNECTING or DISCONNECTED
 * @param securityPolicy the chosen endpoint's policy, short name ({@code Basic256Sha256}, {@code None});
 *        null before the first connect
 * @param securityMode None, Sign or SignAndEncrypt; null before the first connect
 * @param sessionId the public session id (never the authentication token); null while not connected
 * @param subscriptions the client's subscriptions (its own record, also while reconnecting)
 * @param monitoredItems the items of those subscriptions
 * @param reconnects how many times a lost connection was re-established
 * @param notificationsReceived data-change and event notifications received
 * @param notificationsDropped notifications dropped because a subscription's listener queue was full
 * @param publishHoldBacks times Publish requests were held back because a listener queue had no room for
 *        another response (the backlog waited at the server)
 * @param longPublishHoldBacks those hold-backs that lasted two keep-alive periods: the listeners do not keep up
 * @param listenerErrors exceptions thrown by listeners
 * @param republished NotificationMessages obtained again with Republish after a gap
 * @param lostSequenceNumbers NotificationMessages the server no longer had when asked for
 * @param lastError why the client last lost its connection or failed to connect; null when it never did
 * @param lastErrorAt when that happened; null when it never did. The error stays after the connection is back,
 *        so the time tells a current problem from an old one
 */
public record OpcUaClientSnapshot(String endpointUrl, String state, String securityPolicy, String securityMode,
        String sessionId, int subscriptions, long monitoredItems, long reconnects, long notificationsReceived,
        long notificationsDropped, long publishHoldBacks, long longPublishHoldBacks, long listenerErrors,
        long republished, long lostSequenceNumbers,
        String lastError, Instant lastErrorAt) {

    /** Reads the client now. */
    public static OpcUaClientSnapshot of(OpcUaClient client) {
        ClientState state = client.state();
        EndpointDescription endpoint = client.endpoint();
        ClientSession session = state == ClientState.CONNECTED ? client.session() : null;
        ClientSubscriptions subscriptions = client.subscriptions();
        List<ClientSubscription> list = subscriptions.list();
        long items = 0;
        for (ClientSubscription subscription : list) {
            items += subscription.items().size();
        }
        return new OpcUaClientSnapshot(client.config().endpointUrl(), state.name(),
                endpoint == null ? null : SecurityPolicy.nameOf(endpoint.securityPolicyUri()),
                endpoint == null ? null : String.valueOf(endpoint.securityMode()),
                session == null ? null : String.valueOf(session.sessionId()),
                list.size(), items, client.reconnects(), subscriptions.notificationsReceived(),
                subscriptions.droppedNotifications(), subscriptions.publishHoldBacks(),
                subscriptions.longPublishHoldBacks(), subscriptions.listenerErrors(), subscriptions.republished(),
                subscriptions.lostSequenceNumbers(), describe(client.lastError()), client.lastErrorAt());
    }

    /** Whether the client had a session when it was read. */
    public boolean connected() {
        return ClientState.CONNECTED.name().equals(state);
    }

    /** An error as an operator reads it: a UaException's message carries its status, others their type. */
    static String describe(Throwable error) {
        if (error == null) {
            return null;
        }
        Throwable cause = Failures.unwrap(error);
        return cause instanceof UaException ? cause.getMessage() : cause.toString();
    }
}
