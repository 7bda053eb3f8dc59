package dev.opcua.stack.server.subscriptions.items;

import static dev.opcua.stack.server.subscriptions.items.ItemsFixture.HOUR;
import static dev.opcua.stack.server.subscriptions.items.ItemsFixture.filter;
import static dev.opcua.stack.server.subscriptions.items.ItemsFixture.reporting;
import static dev.opcua.stack.server.subscriptions.items.ItemsFixture.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.DataChangeTrigger;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.AggregateFilter;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsRequest;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsResponse;
import dev.opcua.stack.core.types.structured.DeleteMonitoredItemsRequest;
import dev.opcua.stack.core.types.structured.DeleteMonitoredItemsResponse;
import dev.opcua.stack.core.types.structured.EventFilter;
import dev.opcua.stack.core.types.structured.ModifyMonitoredItemsRequest;
import dev.opcua.stack.core.types.structured.ModifyMonitoredItemsResponse;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateRequest;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateResult;
import dev.opcua.stack.core.types.structured.MonitoredItemModifyRequest;
import dev.opcua.stack.core.types.structured.MonitoringParameters;
import dev.opcua.stack.core.types.structured.Range;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.SetMonitoringModeRequest;
import dev.opcua.stack.core.types.structured.SetMonitoringModeResponse;
import dev.opcua.stack.core.types.structured.SetTriggeringRequest;
import dev.opcua.stack.core.types.structured.SetTriggeringResponse;
import dev.opcua.stack.server.services.ServiceDispatcher;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The MonitoredItem service set (Part 4, 5.12): request-level faults and every operation-level status. */
class MonitoredItemServicesTest {

    private static final long SUBSCRIPTION = 1;
    private static final long HANDLE = 77;

    private final ItemsFixture fixture = new ItemsFixture();
    private final FakeOwner owner = fixture.owner(3);
    private final MonitoredItemServices services = new MonitoredItemServices((channel, header) -> null,
            (session, id) -> {
                if (id != SUBSCRIPTION) {
                    throw new UaException(StatusCodes.BadSubscriptionIdInvalid, "no subscription " + id);
                }
                return owner;
            }, 4);

    @AfterEach
    void close() {
        fixture.close();
    }

    private static RequestHeader header() {
        return new RequestHeader(NodeId.NULL, DateTime.now(), HANDLE, 0, null, 0, null);
    }

    private static <T> T get(CompletableFuture<T> future) {
        try {
            return future.get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static void fails(int status, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(UaException.class,
                e -> assertThat(e.statusCode().value()).as(e.getMessage()).isEqualTo(status));
    }

    private CreateMonitoredItemsResponse create(TimestampsToReturn timestamps, MonitoredItemCreateRequest... items) {
        return get(services.createMonitoredItems(null,
                new CreateMonitoredItemsRequest(header(), SUBSCRIPTION, timestamps, items)));
    }

    private int[] createStatuses(MonitoredItemCreateRequest... items) {
        return Arrays.stream(create(TimestampsToReturn.Both, items).results())
                .mapToInt(r -> r.statusCode().value()).toArray();
    }

    private MonitoredItemCreateRequest valueOf(NodeId node, ExtensionObject filter) {
        return request(new ReadValueId(node, AttributeIds.Value, null, null), MonitoringMode.Reporting, HOUR, 1, true,
                filter, 1);
    }

    private long createdId(String path) {
        MonitoredItemCreateResult result = create(TimestampsToReturn.Both, reporting(fixture.id(path), 1)).results()[0];
        assertThat(result.statusCode().isGood()).isTrue();
        return result.monitoredItemId();
    }

    @Test
    void the_session_is_checked_first() {
        MonitoredItemServices guarded = new MonitoredItemServices((channel, header) -> {
            throw new UaException(StatusCodes.BadSessionIdInvalid, "no session");
        }, (session, id) -> owner, 0);
        fails(StatusCodes.BadSessionIdInvalid, () -> guarded.createMonitoredItems(null,
                new CreateMonitoredItemsRequest(header(), SUBSCRIPTION, TimestampsToReturn.Both, null)));
        fails(StatusCodes.BadSessionIdInvalid, () -> guarded.deleteMonitoredItems(null,
                new DeleteMonitoredItemsRequest(header(), SUBSCRIPTION, null)));
    }

    @Test
    void empty_requests_are_bad_nothing_to_do() {
        fails(StatusCodes.BadNothingToDo, () -> services.createMonitoredItems(null,
                new CreateMonitoredItemsRequest(header(), SUBSCRIPTION, TimestampsToReturn.Both, null)));
        fails(StatusCodes.BadNothingToDo, () -> services.modifyMonitoredItems(null,
                new ModifyMonitoredItemsRequest(header(), SUBSCRIPTION, TimestampsToReturn.Both,
                        new MonitoredItemModifyRequest[0])));
        fails(StatusCodes.BadNothingToDo, () -> services.deleteMonitoredItems(null,
                new DeleteMonitoredItemsRequest(header(), SUBSCRIPTION, new long[0])));
        fails(StatusCodes.BadNothingToDo, () -> services.setMonitoringMode(null,
                new SetMonitoringModeRequest(header(), SUBSCRIPTION, MonitoringMode.Reporting, null)));
        fails(StatusCodes.BadNothingToDo, () -> services.setTriggering(null,
                new SetTriggeringRequest(header(), SUBSCRIPTION, 1, null, new long[0])));
    }

    @Test
    void more_operations_than_max_monitored_items_per_call_are_bad_too_many_operations() {
        MonitoredItemCreateRequest any = reporting(fixture.id("Temp"), 1);
        fails(StatusCodes.BadTooManyOperations, () -> create(TimestampsToReturn.Both, any, any, any, any, any));
        fails(StatusCodes.BadTooManyOperations, () -> services.deleteMonitoredItems(null,
                new DeleteMonitoredItemsRequest(header(), SUBSCRIPTION, new long[5])));
        fails(StatusCodes.BadTooManyOperations, () -> services.setMonitoringMode(null,
                new SetMonitoringModeRequest(header(), SUBSCRIPTION, MonitoringMode.Reporting, new long[5])));
        fails(StatusCodes.BadTooManyOperations, () -> services.setTriggering(null,
                new SetTriggeringRequest(header(), SUBSCRIPTION, 1, new long[5], null)));
        MonitoredItemModifyRequest modify = new MonitoredItemModifyRequest(1, null);
        fails(StatusCodes.BadTooManyOperations, () -> services.modifyMonitoredItems(null,
                new ModifyMonitoredItemsRequest(header(), SUBSCRIPTION, TimestampsToReturn.Both,
                        new MonitoredItemModifyRequest[] {modify, modify, modify, modify, modify})));
    }

    @Test
    void an_invalid_timestamps_to_return_is_refused() {
        fails(StatusCodes.BadTimestampsToReturnInvalid,
                () -> create(TimestampsToReturn.Invalid, reporting(fixture.id("Temp"), 1)));
        fails(StatusCodes.BadTimestampsToReturnInvalid, () -> services.modifyMonitoredItems(null,
                new ModifyMonitoredItemsRequest(header(), SUBSCRIPTION, null,
                        new MonitoredItemModifyRequest[] {new MonitoredItemModifyRequest(1, null)})));
    }

    @Test
    void an_unknown_subscription_is_bad_subscription_id_invalid() {
        fails(StatusCodes.BadSubscriptionIdInvalid, () -> services.createMonitoredItems(null,
                new CreateMonitoredItemsRequest(header(), 9, TimestampsToReturn.Both,
                        new MonitoredItemCreateRequest[] {reporting(fixture.id("Temp"), 1)})));
        fails(StatusCodes.BadSubscriptionIdInvalid, () -> services.deleteMonitoredItems(null,
                new DeleteMonitoredItemsRequest(header(), 9, new long[] {1})));
    }

    @Test
    void create_answers_each_item_and_echoes_the_request_handle() {
        CreateMonitoredItemsResponse response = create(TimestampsToReturn.Both, reporting(fixture.id("Temp"), 1),
                reporting(NodeId.string(fixture.id("Temp").namespaceIndex(), "Nope"), 1));
        assertThat(response.responseHeader().requestHandle()).isEqualTo(HANDLE);
        assertThat(response.results()[0].statusCode().isGood()).isTrue();
        assertThat(response.results()[1].statusCode().value()).isEqualTo(StatusCodes.BadNodeIdUnknown);
        assertThat(response.results()[1].monitoredItemId()).isZero();
        assertThat(owner.items().size()).isEqualTo(1);
    }

    @Test
    void create_refuses_nodes_and_attributes_that_do_not_exist_and_malformed_items() {
        NodeId temp = fixture.id("Temp");
        assertThat(createStatuses(
                reporting(NodeId.string(temp.namespaceIndex(), "Nope"), 1),
                reporting(NodeId.string(99, "OtherNamespace"), 1),
                request(new ReadValueId(temp, 99, null, null), MonitoringMode.Reporting, HOUR, 1, true, null, 1),
                request(new ReadValueId(fixture.id("Pump"), AttributeIds.Value, null, null), MonitoringMode.Reporting,
                        HOUR, 1, true, null, 1)))
                .containsExactly(StatusCodes.BadNodeIdUnknown, StatusCodes.BadNodeIdUnknown,
                        StatusCodes.BadAttributeIdInvalid, StatusCodes.BadAttributeIdInvalid);
        assertThat(createStatuses(
                request(new ReadValueId(NodeId.NULL, AttributeIds.Value, null, null), MonitoringMode.Reporting, HOUR,
                        1, true, null, 1),
                request(new ReadValueId(temp, AttributeIds.Value, "2:1", null), MonitoringMode.Reporting, HOUR, 1,
                        true, null, 1),
                request(new ReadValueId(temp, AttributeIds.Value, null, null), null, HOUR, 1, true, null, 1)))
                .containsExactly(StatusCodes.BadNodeIdInvalid, StatusCodes.BadIndexRangeInvalid,
                        StatusCodes.BadMonitoringModeInvalid);
    }

    @Test
    void create_refuses_items_beyond_the_subscription_capacity() {
        MonitoredItemCreateRequest any = reporting(fixture.id("Temp"), 1);
        assertThat(createStatuses(any, any)).containsOnly(StatusCodes.Good);
        assertThat(createStatuses(any, any)).containsExactly(StatusCodes.Good, StatusCodes.BadTooManyMonitoredItems);
        assertThat(owner.items().size()).isEqualTo(3);
        assertThat(fixture.counters.added.get()).isEqualTo(3);
    }

    @Test
    void invalid_deadbands_are_bad_deadband_filter_invalid() {
        NodeId temp = fixture.id("Temp");
        NodeId analog = fixture.id("Analog");
        assertThat(createStatuses(
                valueOf(temp, ExtensionObject.of(filter(DataChangeTrigger.StatusValue, 3, 1))),
                valueOf(temp, ExtensionObject.of(filter(DataChangeTrigger.StatusValue, 1, -1)))))
                .containsOnly(StatusCodes.BadDeadbandFilterInvalid);
        assertThat(createStatuses(
                valueOf(temp, ExtensionObject.of(filter(DataChangeTrigger.StatusValue, 1, Double.NaN))),
                valueOf(analog, ExtensionObject.of(filter(DataChangeTrigger.StatusValue, 2, 100.5)))))
                .containsOnly(StatusCodes.BadDeadbandFilterInvalid);
    }

    @Test
    void filters_that_do_not_fit_the_item_are_bad_filter_not_allowed() {
        NodeId temp = fixture.id("Temp");
        ExtensionObject absolute = ExtensionObject.of(filter(DataChangeTrigger.StatusValue, 1, 1));
        ExtensionObject percent = ExtensionObject.of(filter(DataChangeTrigger.StatusValue, 2, 10));
        assertThat(createStatuses(
                valueOf(temp, ExtensionObject.of(new EventFilter(null, null))),
                request(new ReadValueId(temp, AttributeIds.BrowseName, null, null), MonitoringMode.Reporting, HOUR, 1,
                        true, absolute, 1)))
                .containsOnly(StatusCodes.BadFilterNotAllowed);
        assertThat(createStatuses(
                valueOf(fixture.id("Text"), absolute), // not a number
                valueOf(temp, percent),                 // no EURange
                valueOf(fixture.id("BadRange"), percent))) // EURange is no Range
                .containsOnly(StatusCodes.BadFilterNotAllowed);
        assertThat(createStatuses(request(new ReadValueId(fixture.id("Pump"), AttributeIds.EventNotifier, null, null),
                MonitoringMode.Reporting, 0, 1, true, absolute, 1)))
                .containsExactly(StatusCodes.BadFilterNotAllowed);
    }

    @Test
    void aggregates_are_not_supported_and_a_filter_that_is_no_filter_is_invalid() {
        assertThat(createStatuses(valueOf(fixture.id("Temp"), ExtensionObject.of(new AggregateFilter(DateTime.now(),
                NodeId.NULL, 1000, null)))))
                .containsExactly(StatusCodes.BadMonitoredItemFilterUnsupported);
        assertThat(createStatuses(valueOf(fixture.id("Temp"), ExtensionObject.of(new Range(0, 1)))))
                .containsExactly(StatusCodes.BadMonitoredItemFilterInvalid);
    }

    @Test
    void event_items_without_select_clauses_or_without_a_filter_are_bad_event_filter_invalid() {
        ReadValueId events = new ReadValueId(fixture.area(), AttributeIds.EventNotifier, null, null);
        assertThat(createStatuses(
                request(events, MonitoringMode.Reporting, 0, 1, true, ExtensionObject.of(new EventFilter(null, null)),
                        1),
                request(events, MonitoringMode.Reporting, 0, 1, true, null, 1)))
                .containsOnly(StatusCodes.BadEventFilterInvalid);
    }

    @Test
    void the_deadband_filters_that_fit_are_accepted() {
        assertThat(createStatuses(
                valueOf(fixture.id("Temp"), ExtensionObject.of(filter(DataChangeTrigger.StatusValue, 1, 0.5))),
                valueOf(fixture.id("Analog"), ExtensionObject.of(filter(DataChangeTrigger.StatusValue, 2, 5))),
                valueOf(fixture.id("Values"), ExtensionObject.of(filter(DataChangeTrigger.StatusValue, 1, 1)))))
                .containsOnly(StatusCodes.Good);
    }

    @Test
    void modify_answers_each_item() {
        long id = createdId("Temp");
        ModifyMonitoredItemsResponse response = get(services.modifyMonitoredItems(null,
                new ModifyMonitoredItemsRequest(header(), SUBSCRIPTION, TimestampsToReturn.Both,
                        new MonitoredItemModifyRequest[] {
                            new MonitoredItemModifyRequest(id, new MonitoringParameters(5, -1, null, 4, false)),
                            new MonitoredItemModifyRequest(id + 1000, new MonitoringParameters(5, -1, null, 4, false)),
                            new MonitoredItemModifyRequest(id, new MonitoringParameters(5, -1,
                                    ExtensionObject.of(filter(DataChangeTrigger.StatusValue, 7, 1)), 4, false)),
                            new MonitoredItemModifyRequest(id, new MonitoringParameters(5, -1,
                                    ExtensionObject.of(filter(DataChangeTrigger.StatusValue, 2, 1)), 4, false))})));
        assertThat(response.responseHeader().requestHandle()).isEqualTo(HANDLE);
        assertThat(Arrays.stream(response.results()).mapToInt(r -> r.statusCode().value()).toArray())
                .containsExactly(StatusCodes.Good, StatusCodes.BadMonitoredItemIdInvalid,
                        StatusCodes.BadDeadbandFilterInvalid, StatusCodes.BadFilterNotAllowed);
        assertThat(response.results()[0].revisedSamplingInterval()).isEqualTo(100);
        assertThat(response.results()[0].revisedQueueSize()).isEqualTo(4);
        assertThat(owner.items().item(id).discardOldest()).isFalse();
    }

    @Test
    void delete_answers_each_item() {
        long id = createdId("Temp");
        DeleteMonitoredItemsResponse response = services.deleteMonitoredItems(null,
                new DeleteMonitoredItemsRequest(header(), SUBSCRIPTION, new long[] {id, id, 12345}));
        assertThat(response.results()).extracting(StatusCode::value).containsExactly(StatusCodes.Good,
                StatusCodes.BadMonitoredItemIdInvalid, StatusCodes.BadMonitoredItemIdInvalid);
        assertThat(owner.items().size()).isZero();
        assertThat(fixture.counters.live()).isZero();
    }

    @Test
    void set_monitoring_mode_needs_a_mode_and_answers_each_item() {
        long id = createdId("Temp");
        fails(StatusCodes.BadMonitoringModeInvalid, () -> services.setMonitoringMode(null,
                new SetMonitoringModeRequest(header(), SUBSCRIPTION, null, new long[] {id})));
        SetMonitoringModeResponse response = get(services.setMonitoringMode(null,
                new SetMonitoringModeRequest(header(), SUBSCRIPTION, MonitoringMode.Sampling, new long[] {id, 999})));
        assertThat(response.results()).extracting(StatusCode::value)
                .containsExactly(StatusCodes.Good, StatusCodes.BadMonitoredItemIdInvalid);
        assertThat(owner.items().item(id).monitoringMode()).isEqualTo(MonitoringMode.Sampling);
    }

    @Test
    void set_triggering_needs_the_triggering_item_and_answers_each_link() {
        long trigger = createdId("Temp");
        long linked = createdId("Count");
        fails(StatusCodes.BadMonitoredItemIdInvalid, () -> services.setTriggering(null,
                new SetTriggeringRequest(header(), SUBSCRIPTION, 4242, new long[] {linked}, null)));
        SetTriggeringResponse added = services.setTriggering(null,
                new SetTriggeringRequest(header(), SUBSCRIPTION, trigger, new long[] {linked, 4242}, null));
        assertThat(added.addResults()).extracting(StatusCode::value)
                .containsExactly(StatusCodes.Good, StatusCodes.BadMonitoredItemIdInvalid);
        assertThat(added.removeResults()).isEmpty();
        SetTriggeringResponse removed = services.setTriggering(null,
                new SetTriggeringRequest(header(), SUBSCRIPTION, trigger, null, new long[] {linked, linked}));
        assertThat(removed.removeResults()).extracting(StatusCode::value)
                .containsExactly(StatusCodes.Good, StatusCodes.BadMonitoredItemIdInvalid);
        assertThat(owner.items().item(trigger).linkedItems()).isEmpty();
    }

    @Test
    void register_with_registers_the_five_services() {
        ServiceDispatcher.Builder builder = ServiceDispatcher.builder();
        services.registerWith(builder);
        assertThatThrownBy(() -> builder.registerSync(SetTriggeringRequest.class, (channel, request) -> null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SetTriggeringRequest");
        assertThatThrownBy(() -> builder.registerSync(CreateMonitoredItemsRequest.class, (channel, request) -> null))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
