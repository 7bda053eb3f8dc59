package dev.opcua.stack.client.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.types.builtin.NodeId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ItemsByHandleTest {

    private static ClientMonitoredItem item(int handle) {
        return new ClientMonitoredItem(null, handle, DataItemRequest.of(NodeId.numeric(2, handle), 100, null));
    }

    @Test
    void finds_every_item_by_its_handle_across_growth_and_removals() {
        ItemsByHandle map = new ItemsByHandle();
        List<ClientMonitoredItem> all = new ArrayList<>();
        for (int h = 1; h <= 10_000; h++) {
            ClientMonitoredItem item = item(h);
            all.add(item);
            map.put(item);
        }
        for (int h = 1; h <= 10_000; h += 2) {
            map.remove(all.get(h - 1));
        }
        for (int h = 1; h <= 10_000; h++) {
            assertThat(map.get(h)).isSameAs(h % 2 == 1 ? null : all.get(h - 1));
        }
        assertThat(map.get(0)).isNull();
        assertThat(map.size()).isEqualTo(5000);
        assertThat(map.values()).first().isSameAs(all.get(1));
    }

    @Test
    void reuses_the_slots_of_removed_items() {
        ItemsByHandle map = new ItemsByHandle();
        for (int round = 0; round < 1000; round++) {
            ClientMonitoredItem item = item(round);
            map.put(item);
            assertThat(map.get(round)).isSameAs(item);
            map.remove(item);
            assertThat(map.get(round)).isNull();
        }
        assertThat(map.size()).isZero();
    }
}
