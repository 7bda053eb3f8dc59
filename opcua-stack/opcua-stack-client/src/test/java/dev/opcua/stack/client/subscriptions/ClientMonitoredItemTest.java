package dev.opcua.stack.client.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.types.builtin.NodeId;
import org.junit.jupiter.api.Test;

class ClientMonitoredItemTest {

    private static ClientMonitoredItem item(int handle) {
        return new ClientMonitoredItem(null, handle, DataItemRequest.of(NodeId.numeric(2, handle), 100, null));
    }

    @Test
    void an_item_triggers_none_until_linked() {
        assertThat(item(1).triggeredItems()).isEmpty();
    }

    @Test
    void keeps_triggered_items_in_the_order_linked_each_once() {
        ClientMonitoredItem trigger = item(1);
        ClientMonitoredItem a = item(2);
        ClientMonitoredItem b = item(3);

        trigger.linkTriggered(a, true);
        trigger.linkTriggered(b, true);
        trigger.linkTriggered(a, true);

        assertThat(trigger.triggeredItems()).containsExactly(a, b);
    }

    @Test
    void an_unlinked_item_is_no_longer_triggered_and_the_others_keep_their_order() {
        ClientMonitoredItem trigger = item(1);
        ClientMonitoredItem a = item(2);
        ClientMonitoredItem b = item(3);
        ClientMonitoredItem c = item(4);
        trigger.linkTriggered(a, true);
        trigger.linkTriggered(b, true);
        trigger.linkTriggered(c, true);

        trigger.linkTriggered(b, false);
        trigger.linkTriggered(item(5), false);

        assertThat(trigger.triggeredItems()).containsExactly(a, c);
    }

    @Test
    void the_list_handed_out_is_a_copy_that_later_links_leave_alone() {
        ClientMonitoredItem trigger = item(1);
        ClientMonitoredItem a = item(2);
        trigger.linkTriggered(a, true);

        var before = trigger.triggeredItems();
        trigger.linkTriggered(item(3), true);
        before.clear();

        assertThat(trigger.triggeredItems()).hasSize(2).first().isSameAs(a);
    }
}
