package dev.opcua.stack.server.subscriptions.items;

import static dev.opcua.stack.server.subscriptions.items.ItemsFixture.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.MonitoredItemModifyRequest;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import dev.opcua.stack.core.types.structured.MonitoringParameters;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.nodes.OperationContext;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The push path (Part 4, 5.12.1.2 exception-based items): broker, MonitoringAware callbacks, no sampling. */
class DataChangeBrokerTest {

    private final ItemsFixture fixture = new ItemsFixture();
    private final FakeOwner owner = fixture.owner();

    @AfterEach
    void close() {
        fixture.close();
    }

    private static DataValue value(int v) {
        return DataValue.of(Variant.ofInt32(v), StatusCode.GOOD, DateTime.now(), null);
    }

    private static List<Object> values(List<MonitoredItemNotification> notifications) {
        return notifications.stream().map(n -> n.value().value().value()).toList();
    }

    private MonitoredItem onChange(String node) {
        return fixture.createOne(owner, request(fixture.pushed(node), MonitoringMode.Reporting, 0, 10, true, null));
    }

    @Test
    void an_item_with_interval_0_on_a_pushed_node_is_fed_by_the_broker_and_not_sampled() {
        MonitoredItem item = onChange("P1");
        assertThat(item.samplingInterval()).isZero();
        assertThat(item.isFedByBroker()).isTrue();
        assertThat(fixture.factory.sampledItems()).isZero();
        assertThat(fixture.broker.isMonitored(fixture.pushed("P1"))).isTrue();
        assertThat(fixture.pushing.callbacks).containsExactly("started P1 0.0");

        fixture.broker.valueChanged(fixture.pushed("P1"), value(10));
        fixture.broker.valueChanged(fixture.pushed("P1"), value(11));
        List<MonitoredItemNotification> published = owner.publish();
        assertThat(values(published)).containsExactly(1, 10, 11); // the create read's value first
        assertThat(published.get(1).value().serverTimestamp()).as("added by the broker").isNotNull();
        assertThat(owner.signalsOf(item)).isEqualTo(1);
    }

    @Test
    void a_report_reaches_only_the_items_of_its_node() {
        MonitoredItem p1 = onChange("P1");
        MonitoredItem p2 = onChange("P2");
        MonitoredItem another = onChange("P1");
        owner.publish();
        fixture.broker.valueChanged(fixture.pushed("P1"), value(10));
        assertThat(p1.queuedNotifications()).isEqualTo(1);
        assertThat(another.queuedNotifications()).isEqualTo(1);
        assertThat(p2.queuedNotifications()).isZero();
        fixture.broker.valueChanged(fixture.pushed("Nobody"), value(5)); // no items: nothing happens
        assertThat(fixture.broker.monitoredNodes()).isEqualTo(2);
    }

    @Test
    void items_with_an_interval_or_on_nodes_the_manager_does_not_push_are_sampled() {
        MonitoredItem timed = fixture.createOne(owner,
                request(fixture.pushed("P1"), MonitoringMode.Reporting, 100, 1, true, null));
        MonitoredItem polled = onChange("Polled");
        assertThat(timed.isFedByBroker()).isFalse();
        assertThat(polled.isFedByBroker()).isFalse();
        assertThat(polled.samplingInterval()).isEqualTo(MonitoredItemSettings.DEFAULT.minSamplingInterval());
        assertThat(fixture.factory.sampledItems()).isEqualTo(2);
        assertThat(fixture.pushing.callbacks).containsExactly("started P1 100.0", "started Polled 10.0");
    }

    @Test
    void the_manager_learns_when_monitoring_stops_and_starts_again() throws Exception {
        MonitoredItem item = onChange("P1");
        owner.items().setMonitoringMode(new OperationContext(null), MonitoringMode.Disabled, new long[] {item.id()})
                .get(5, TimeUnit.SECONDS);
        assertThat(fixture.broker.isMonitored(fixture.pushed("P1"))).isFalse();
        fixture.broker.valueChanged(fixture.pushed("P1"), value(10));
        assertThat(item.queuedNotifications()).isZero();

        owner.items().setMonitoringMode(new OperationContext(null), MonitoringMode.Reporting, new long[] {item.id()})
                .get(5, TimeUnit.SECONDS);
        owner.items().delete(new long[] {item.id()});
        assertThat(fixture.pushing.callbacks).containsExactly("started P1 0.0", "stopped P1 0.0", "started P1 0.0",
                "stopped P1 0.0");
        assertThat(fixture.broker.monitoredNodes()).isZero();
    }

    @Test
    void modifying_the_interval_moves_an_item_between_broker_and_sampler() throws Exception {
        MonitoredItem item = onChange("P1");
        owner.items().modify(new OperationContext(null), TimestampsToReturn.Both, new MonitoredItemModifyRequest[] {
            new MonitoredItemModifyRequest(item.id(), new MonitoringParameters(7, 500, null, 10, true))})
                .get(5, TimeUnit.SECONDS);
        assertThat(item.isFedByBroker()).isFalse();
        assertThat(fixture.factory.sampledItems()).isEqualTo(1);
        assertThat(fixture.broker.isMonitored(fixture.pushed("P1"))).isFalse();
        assertThat(fixture.pushing.callbacks).containsExactly("started P1 0.0", "stopped P1 0.0", "started P1 500.0");
    }

    @Test
    void the_index_range_of_an_item_applies_to_pushed_values() {
        fixture.pushing.values.put("P1", DataValue.of(Variant.ofArray(BuiltinType.Int32, new int[] {1, 2, 3})));
        MonitoredItem item = fixture.createOne(owner, ItemsFixture.request(
                new ReadValueId(fixture.pushed("P1"), AttributeIds.Value, "1:2", null), MonitoringMode.Reporting, 0,
                10, true, null, 3));
        item.onPushedValue(DataValue.of(Variant.ofArray(BuiltinType.Int32, new int[] {1, 5, 6, 7})));
        item.onPushedValue(DataValue.of(Variant.ofInt32(1)));
        List<MonitoredItemNotification> published = owner.publish();
        assertThat(published).hasSize(3);
        assertThat((int[]) published.get(1).value().value().value()).containsExactly(5, 6);
        assertThat(published.get(2).value().statusCode().isBad()).isTrue();
        assertThat(published.get(2).value().statusCode().value() & 0xFFFF0000)
                .isIn(StatusCodes.BadIndexRangeNoData, StatusCodes.BadIndexRangeInvalid);
    }
}
