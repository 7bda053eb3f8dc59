package dev.opcua.stack.server.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.types.structured.EventFieldList;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReadyItemsTest {

    @Test
    void items_come_out_in_the_order_they_signalled_across_swaps() {
        ReadyItems ready = new ReadyItems();
        List<NotificationProducer> items = producers(5);
        ready.add(items.get(0));
        ready.add(items.get(1));
        assertThat(ready.peek()).isSameAs(items.get(0));
        assertThat(ready.poll()).isSameAs(items.get(0));
        ready.add(items.get(2)); // arrives while the consumer works through its batch
        assertThat(ready.poll()).isSameAs(items.get(1));
        assertThat(ready.poll()).isSameAs(items.get(2));
        assertThat(ready.poll()).isNull();
        ready.add(items.get(3));
        ready.add(items.get(4));
        assertThat(ready.poll()).isSameAs(items.get(3));
        assertThat(ready.poll()).isSameAs(items.get(4));
        assertThat(ready.peek()).isNull();
    }

    @Test
    void clear_forgets_both_batches() {
        ReadyItems ready = new ReadyItems();
        List<NotificationProducer> items = producers(3);
        ready.add(items.get(0));
        ready.add(items.get(1));
        assertThat(ready.peek()).isSameAs(items.get(0));
        ready.add(items.get(2));
        ready.clear();
        assertThat(ready.poll()).isNull();
    }

    @Test
    void a_burst_larger_than_the_kept_capacity_still_drains_in_order() {
        ReadyItems ready = new ReadyItems();
        List<NotificationProducer> items = producers(5000);
        items.forEach(ready::add);
        for (NotificationProducer item : items) {
            assertThat(ready.poll()).isSameAs(item);
        }
        assertThat(ready.poll()).isNull();
        ready.add(items.get(0));
        assertThat(ready.poll()).isSameAs(items.get(0));
    }

    private static List<NotificationProducer> producers(int n) {
        List<NotificationProducer> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(new NotificationProducer() {
                @Override
                public int drain(List<MonitoredItemNotification> dataChanges, List<EventFieldList> events, int max) {
                    return 0;
                }

                @Override
                public boolean hasNotifications() {
                    return false;
                }
            });
        }
        return list;
    }
}
