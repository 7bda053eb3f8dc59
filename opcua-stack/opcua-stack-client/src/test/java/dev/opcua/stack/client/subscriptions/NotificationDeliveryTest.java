package dev.opcua.stack.client.subscriptions;

import static dev.opcua.stack.client.subscriptions.ScriptedInvoker.header;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.core.types.structured.PublishRequest;
import dev.opcua.stack.core.types.structured.PublishResponse;
import dev.opcua.stack.core.types.structured.StatusChangeNotification;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

/**
 * The {@link NotificationDelivery} to listeners: off the Publish path, bounded, counting what a listener
 * throws, status changes included.
 */
class NotificationDeliveryTest extends ScriptedServerFixture {

    @Test
    void a_response_larger_than_the_room_left_in_the_queue_is_dropped_and_counted_as_the_last_resort() {
        subscriptions = newSubscriptions(SubscriptionSettings.builder().maxQueuedNotifications(5).build());
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);
        runListenersInline = false;

        publish(data(1, 1, new long[] {1}, item, 1, 2, 3));
        publish(data(1, 2, new long[] {2}, item, 4, 5, 6, 7));

        assertThat(values).as("the listener has not run yet").isEmpty();
        assertThat(server.pending(PublishRequest.class)).as("no room for another response: none sent").isEqualTo(1);
        assertThat(subscriptions.droppedNotifications()).isEqualTo(2);
        runListenerTasks();
        assertThat(values).containsExactly(1, 2, 3, 4, 5);
        assertThat(s.queuedNotifications()).isZero();
    }

    @Test
    void a_listener_that_throws_is_counted_and_keeps_receiving() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, v -> {
            values.add(v);
            throw new IllegalStateException("listener bug (expected by the test)");
        });

        publish(data(1, 1, new long[] {1}, item, 1, 2));

        assertThat(values).containsExactly(1, 2);
        assertThat(subscriptions.listenerErrors()).isEqualTo(2);
        assertThat(server.pending(PublishRequest.class)).isEqualTo(2);
    }

    @Test
    void a_status_change_notification_reaches_the_status_listener() {
        ClientSubscription s = subscribe(1);
        List<StatusCode> statuses = new ArrayList<>();
        s.setStatusListener((sub, status) -> statuses.add(status));
        NotificationMessage m = new NotificationMessage(1, DateTime.now(), new ExtensionObject[] {
                ExtensionObject.of(new StatusChangeNotification(StatusCode.of(StatusCodes.BadTimeout), null))});

        publish(new PublishResponse(header(), 1, new long[] {1}, false, m, null, null));

        assertThat(statuses).containsExactly(StatusCode.of(StatusCodes.BadTimeout));
        assertThat(s.status()).isEqualTo(StatusCode.of(StatusCodes.BadTimeout));
    }

    @Test
    void notifications_a_shut_down_listener_executor_refuses_are_dropped_and_counted() {
        SubscriptionCounters counters = new SubscriptionCounters();
        NotificationDelivery delivery = new NotificationDelivery(null, counters, task -> {
            throw new RejectedExecutionException("shut down");
        }, 10, () -> { });

        delivery.offerDataChanges(new MonitoredItemNotification[3]);
        delivery.flush();

        assertThat(counters.droppedNotifications()).isEqualTo(3);
        assertThat(delivery.queued()).isZero();
    }

    @Test
    void a_status_change_is_queued_even_when_the_queue_is_full() {
        SubscriptionCounters counters = new SubscriptionCounters();
        NotificationDelivery delivery = new NotificationDelivery(null, counters, listenerTasks::add, 2, () -> { });

        delivery.offerDataChanges(new MonitoredItemNotification[2]);
        delivery.offerDataChanges(new MonitoredItemNotification[1]);
        delivery.offerStatus(StatusCode.of(StatusCodes.BadTimeout));

        assertThat(counters.droppedNotifications()).isEqualTo(1);
        assertThat(delivery.queued()).isEqualTo(3);
    }
}
