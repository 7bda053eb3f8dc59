package dev.opcua.stack.server.subscriptions;

import static dev.opcua.stack.server.subscriptions.Notifications.values;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.structured.DataChangeNotification;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import dev.opcua.stack.core.types.structured.PublishResponse;
import dev.opcua.stack.server.subscriptions.CapturingChannel.Answer;
import dev.opcua.stack.server.subscriptions.FakeItems.Item;
import dev.opcua.stack.server.subscriptions.SubscriptionBench.Client;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A NotificationMessage stays within the client's message size even where maxNotificationsPerPublish
 * allows more (Part 4, 5.14.5.1): the rest follows with moreNotifications, in order, nothing lost.
 */
class MessageSizeLimitTest {

    private static final int LIMIT = 16 * 1024;

    private final SubscriptionBench bench = new SubscriptionBench(SubscriptionSettings.DEFAULT.toBuilder()
            .maxNotificationsPerPublish(65_535).build());
    private final Client client = bench.open(1, "alice");

    @AfterEach
    void close() {
        bench.close();
    }

    @Test
    void queued_notifications_larger_than_the_clients_message_size_leave_in_messages_that_fit_it() {
        client.channel().maxResponseBodySize(LIMIT);
        long id = bench.create(client, 1000, 30, 3, 0).subscriptionId();
        List<Item> items = new ArrayList<>();
        for (int handle = 1; handle <= 100; handle++) {
            items.add(bench.items.of(id).add(handle));
        }
        items.forEach(item -> item.report(50)); // 5,000 notifications, about 30 bytes each

        List<PublishResponse> responses = new ArrayList<>();
        for (int round = 0; round < 40 && received(responses) < 5_000; round++) {
            bench.publish(client);
            bench.publish(client);
            bench.clock.advanceMillis(1000);
            client.channel().take().stream().map(Answer::publish).forEach(responses::add);
        }

        assertThat(received(responses)).isEqualTo(5_000);
        assertThat(responses).hasSizeGreaterThan(5);
        for (PublishResponse response : responses) {
            assertThat(encodedSize(response)).as("message %d", response.notificationMessage().sequenceNumber())
                    .isLessThanOrEqualTo(LIMIT);
        }
        assertThat(responses.subList(0, responses.size() - 1)).allMatch(PublishResponse::moreNotifications);
        Map<Long, List<Integer>> byItem = new HashMap<>();
        for (PublishResponse response : responses) {
            for (MonitoredItemNotification n : notifications(response)) {
                byItem.computeIfAbsent(n.clientHandle(), h -> new ArrayList<>()).add((Integer) n.value().value().value());
            }
        }
        List<Integer> oneToFifty = new ArrayList<>();
        for (int i = 1; i <= 50; i++) {
            oneToFifty.add(i);
        }
        assertThat(byItem).hasSize(100).allSatisfy((handle, values) -> assertThat(values).isEqualTo(oneToFifty));
    }

    @Test
    void without_a_limit_from_the_client_max_notifications_per_publish_alone_sizes_the_message() {
        long id = bench.create(client, 1000, 30, 3, 0).subscriptionId();
        Item item = bench.items.of(id).add(1);
        item.report(5_000);
        bench.publish(client);

        bench.clock.advanceMillis(1000);

        PublishResponse response = client.channel().single().publish();
        assertThat(values(response.notificationMessage())).hasSize(5_000);
        assertThat(response.moreNotifications()).isFalse();
    }

    private static int received(List<PublishResponse> responses) {
        return responses.stream().mapToInt(r -> notifications(r).size()).sum();
    }

    private static List<MonitoredItemNotification> notifications(PublishResponse response) {
        List<MonitoredItemNotification> all = new ArrayList<>();
        ExtensionObject[] data = response.notificationMessage().notificationData();
        if (data != null) {
            for (ExtensionObject eo : data) {
                if (eo.decoded() instanceof DataChangeNotification changes) {
                    all.addAll(List.of(changes.monitoredItems()));
                }
            }
        }
        return all;
    }

    private static int encodedSize(PublishResponse response) {
        ByteBuf buf = Unpooled.buffer();
        try {
            new UaEncoder(CodecRegistry.standard(), buf).writeMessage(response);
            return buf.readableBytes();
        } finally {
            buf.release();
        }
    }
}
