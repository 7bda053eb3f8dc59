package dev.opcua.stack.server.subscriptions;

import dev.opcua.stack.server.transport.uasc.ResponseHeaders;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.DiagnosticInfo;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.core.types.structured.PublishResponse;
import dev.opcua.stack.core.types.structured.StatusChangeNotification;

/** How parked Publish requests are answered (Part 4, 5.13.5 and 7.21 NotificationMessage). */
final class PublishResponses {

    private static final long[] NO_SEQUENCE_NUMBERS = new long[0];

    private PublishResponses() {
    }

    /** Answers with a NotificationMessage (notifications or a keep-alive) of subscription {@code subscriptionId}. */
    static void send(ParkedPublish request, long subscriptionId, long[] availableSequenceNumbers,
            boolean moreNotifications, NotificationMessage message) {
        request.channel().sendResponse(request.requestId(), new PublishResponse(
                ResponseHeaders.good(request.requestHandle()), subscriptionId, availableSequenceNumbers,
                moreNotifications, message, request.results(), null));
    }

    /** Answers with a StatusChangeNotification of a subscription that left the session. */
    static void send(ParkedPublish request, SessionSubscriptions.StatusMessage status) {
        send(request, status.subscriptionId(), NO_SEQUENCE_NUMBERS, false, status.message());
    }

    /** Answers with a ServiceFault. */
    static void fault(ParkedPublish request, int status) {
        request.channel().sendServiceFault(request.requestId(), request.requestHandle(), status);
    }

    /**
     * A NotificationMessage holding one StatusChangeNotification (Part 4, 7.20.4). It carries the
     * subscription's next sequence number without consuming it, like a keep-alive: the subscription may
     * go on in another session, whose client must not see a gap.
     */
    static NotificationMessage statusChange(long nextSequenceNumber, int status) {
        return new NotificationMessage(nextSequenceNumber, DateTime.now(), new ExtensionObject[] {
                ExtensionObject.of(new StatusChangeNotification(StatusCode.of(status), DiagnosticInfo.NULL))});
    }
}
