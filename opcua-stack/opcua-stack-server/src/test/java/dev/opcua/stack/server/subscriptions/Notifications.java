package dev.opcua.stack.server.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.structured.DataChangeNotification;
import dev.opcua.stack.core.types.structured.EventNotificationList;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.core.types.structured.StatusChangeNotification;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Reading NotificationMessages and statuses in tests. */
final class Notifications {

    private Notifications() {
    }

    static boolean isKeepAlive(NotificationMessage message) {
        return message.notificationData() == null || message.notificationData().length == 0;
    }

    /** The values (Int32) of every data change in the message, in order. */
    static List<Integer> values(NotificationMessage message) {
        List<Integer> values = new ArrayList<>();
        for (ExtensionObject data : message.notificationData()) {
            if (data.decoded() instanceof DataChangeNotification changes) {
                for (MonitoredItemNotification n : changes.monitoredItems()) {
                    values.add((Integer) n.value().value().value());
                }
            }
        }
        return values;
    }

    static int dataChangeCount(NotificationMessage message) {
        int count = 0;
        for (ExtensionObject data : message.notificationData()) {
            if (data.decoded() instanceof DataChangeNotification changes) {
                count += changes.monitoredItems().length;
            }
        }
        return count;
    }

    static int eventCount(NotificationMessage message) {
        int count = 0;
        for (ExtensionObject data : message.notificationData()) {
            if (data.decoded() instanceof EventNotificationList events) {
                count += events.events().length;
            }
        }
        return count;
    }

    /** The status of the message's only StatusChangeNotification. */
    static int statusChange(NotificationMessage message) {
        assertThat(message.notificationData()).hasSize(1);
        return ((StatusChangeNotification) message.notificationData()[0].decoded()).status().value();
    }

    static void assertStatus(ThrowingCallable call, int status) {
        assertThatThrownBy(call).isInstanceOfSatisfying(UaException.class,
                e -> assertThat(e.statusCode().value()).as(StatusCodes.name(status)).isEqualTo(status));
    }

    static void assertFault(CapturingChannel.Answer answer, int status) {
        assertThat(answer.faultStatus()).as("%s, expected %s", answer.message(), StatusCodes.name(status))
                .isEqualTo(status);
    }
}
