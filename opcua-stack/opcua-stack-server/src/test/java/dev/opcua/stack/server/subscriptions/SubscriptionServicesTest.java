package dev.opcua.stack.server.subscriptions;

import static dev.opcua.stack.server.subscriptions.Notifications.assertStatus;
import static dev.opcua.stack.server.subscriptions.SubscriptionBench.header;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.CreateSubscriptionRequest;
import dev.opcua.stack.core.types.structured.CreateSubscriptionResponse;
import dev.opcua.stack.core.types.structured.DeleteSubscriptionsRequest;
import dev.opcua.stack.core.types.structured.ModifySubscriptionRequest;
import dev.opcua.stack.core.types.structured.ModifySubscriptionResponse;
import dev.opcua.stack.core.types.structured.SetPublishingModeRequest;
import dev.opcua.stack.server.services.ServiceDispatcher;
import dev.opcua.stack.server.subscriptions.SubscriptionBench.Client;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The subscription services' responses and refusals (Part 4, 5.13.2 to 5.13.8), the limits of the
 * {@link SubscriptionManager}, its lookup for the monitored-item services and its publishing thread.
 */
class SubscriptionServicesTest {

    private SubscriptionBench bench = new SubscriptionBench();
    private Client client = bench.open(1, "alice");

    @AfterEach
    void close() {
        bench.close();
    }

    private void use(SubscriptionSettings settings) {
        bench.close();
        bench = new SubscriptionBench(settings);
        client = bench.open(1, "alice");
    }

    @Test
    void create_subscription_answers_the_revised_parameters_and_an_id_that_is_never_zero() {
        CreateSubscriptionResponse response = bench.create(client, 20, 5, 0, 0);

        assertThat(response.subscriptionId()).isBetween(1L, 0xFFFF_FFFFL);
        assertThat(response.revisedPublishingInterval()).isEqualTo(100);
        assertThat(response.revisedMaxKeepAliveCount()).isEqualTo(1);
        assertThat(response.revisedLifetimeCount()).isEqualTo(5);
        assertThat(response.responseHeader().requestHandle()).isEqualTo(7);
        Subscription subscription = bench.subscription(client, response.subscriptionId());
        assertThat(subscription.maxNotificationsPerPublish()).isEqualTo(100);
        assertThat(subscription.publishingEnabled()).isTrue();
        assertThat(subscription.publishingIntervalMillis()).isEqualTo(100);
        assertThat(bench.statistics.subscriptions()).isEqualTo(1);
        assertThat(bench.statistics.subscriptionsCreated()).isEqualTo(1);
    }

    @Test
    void ids_are_unique_across_sessions() {
        Client other = bench.open(2, "bob");
        Set<Long> ids = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            ids.add(bench.create(i % 2 == 0 ? client : other));
        }
        assertThat(ids).hasSize(40).doesNotContain(0L);
    }

    @Test
    void the_session_and_the_server_limits_are_refused_bad_too_many_subscriptions() {
        use(SubscriptionSettings.builder().maxSubscriptions(3).maxSubscriptionsPerSession(2).build());
        bench.create(client);
        bench.create(client);
        assertStatus(() -> bench.create(client), StatusCodes.BadTooManySubscriptions);

        Client other = bench.open(2, "bob");
        bench.create(other);
        assertStatus(() -> bench.create(other), StatusCodes.BadTooManySubscriptions);
        assertThat(bench.manager.subscriptionCount()).isEqualTo(3);
    }

    @Test
    void modify_subscription_revises_and_refuses_unknown_ids() {
        long id = bench.create(client);

        ModifySubscriptionResponse response = bench.services.modifySubscription(client.channel(),
                new ModifySubscriptionRequest(header(client.token()), id, 5_000_000, 2, 4, 7, (short) 9));

        assertThat(response.revisedPublishingInterval()).isEqualTo(3_600_000);
        assertThat(response.revisedMaxKeepAliveCount()).isEqualTo(4);
        assertThat(response.revisedLifetimeCount()).isEqualTo(12);
        Subscription subscription = bench.subscription(client, id);
        assertThat(subscription.maxNotificationsPerPublish()).isEqualTo(7);
        assertThat(subscription.priority()).isEqualTo((short) 9);
        assertStatus(() -> bench.services.modifySubscription(client.channel(), new ModifySubscriptionRequest(
                header(client.token()), id + 1, 100, 30, 3, 0, (short) 0)), StatusCodes.BadSubscriptionIdInvalid);
    }

    @Test
    void set_publishing_mode_and_delete_subscriptions_answer_per_subscription() {
        long id = bench.create(client);
        Client bob = bench.open(2, "bob");
        long bobs = bench.create(bob);

        StatusCode[] modes = bench.services.setPublishingMode(client.channel(), new SetPublishingModeRequest(
                header(client.token()), false, new long[] {id, bobs})).results();
        assertThat(modes).extracting(StatusCode::value).containsExactly(StatusCodes.Good,
                StatusCodes.BadSubscriptionIdInvalid);
        assertThat(bench.subscription(client, id).publishingEnabled()).isFalse();
        assertThat(bench.subscription(bob, bobs).publishingEnabled()).isTrue();

        StatusCode[] deleted = bench.services.deleteSubscriptions(client.channel(), new DeleteSubscriptionsRequest(
                header(client.token()), new long[] {id, bobs, id})).results();
        assertThat(deleted).extracting(StatusCode::value).containsExactly(StatusCodes.Good,
                StatusCodes.BadSubscriptionIdInvalid, StatusCodes.BadSubscriptionIdInvalid);
        assertThat(bench.subscription(client, id)).isNull();
        assertThat(bench.subscription(bob, bobs)).isNotNull();
        assertThat(bench.manager.subscriptionCount()).isEqualTo(1);
        assertThat(bench.statistics.subscriptions()).isEqualTo(1);
    }

    @Test
    void requests_without_ids_are_refused_bad_nothing_to_do() {
        assertStatus(() -> bench.services.setPublishingMode(client.channel(), new SetPublishingModeRequest(
                header(client.token()), true, null)), StatusCodes.BadNothingToDo);
        assertStatus(() -> bench.services.deleteSubscriptions(client.channel(), new DeleteSubscriptionsRequest(
                header(client.token()), new long[0])), StatusCodes.BadNothingToDo);
    }

    @Test
    void deleting_a_subscription_deletes_its_items_and_stops_its_timer() {
        long id = bench.create(client);
        bench.items.of(id).add(1);
        bench.items.of(id).add(2);
        assertThat(bench.statistics.monitoredItems()).isEqualTo(2);
        int timers = bench.clock.pending();

        bench.services.deleteSubscriptions(client.channel(), new DeleteSubscriptionsRequest(header(client.token()),
                new long[] {id}));

        assertThat(bench.items.of(id).deleteAllCalls).isEqualTo(1);
        assertThat(bench.statistics.monitoredItems()).isZero();
        assertThat(bench.clock.pending()).isEqualTo(timers - 1);
    }

    @Test
    void every_service_needs_an_activated_session_on_its_channel() {
        CapturingChannel other = new CapturingChannel(5);
        assertStatus(() -> bench.services.createSubscription(other, new CreateSubscriptionRequest(
                header(client.token()), 100, 30, 3, 0, true, (short) 0)), StatusCodes.BadSecureChannelIdInvalid);
        assertStatus(() -> bench.services.createSubscription(client.channel(), new CreateSubscriptionRequest(
                header(NodeId.NULL), 100, 30, 3, 0, true, (short) 0)), StatusCodes.BadSessionIdInvalid);
        assertThat(bench.manager.subscriptionCount()).isZero();
    }

    @Test
    void the_lookup_finds_only_the_sessions_own_subscriptions() {
        long id = bench.create(client);
        Client bob = bench.open(2, "bob");

        ItemOwner owner = bench.manager.find(client.session(), id);

        assertThat(owner.subscriptionId()).isEqualTo(id);
        assertThat(owner.publishingIntervalMillis()).isEqualTo(1000);
        assertThat(owner.items()).isSameAs(bench.items.of(id));
        assertStatus(() -> bench.manager.find(bob.session(), id), StatusCodes.BadSubscriptionIdInvalid);
        assertStatus(() -> bench.manager.find(client.session(), id + 1), StatusCodes.BadSubscriptionIdInvalid);
    }

    @Test
    void the_remaining_item_capacity_honours_the_subscription_and_the_server_limits() {
        assertThat(bench.manager.find(client.session(), bench.create(client)).remainingItemCapacity())
                .isEqualTo(Integer.MAX_VALUE);

        use(SubscriptionSettings.builder().maxMonitoredItems(5).maxMonitoredItemsPerSubscription(3).build());
        long a = bench.create(client);
        long b = bench.create(client);
        ItemOwner first = bench.manager.find(client.session(), a);
        ItemOwner second = bench.manager.find(client.session(), b);
        assertThat(first.remainingItemCapacity()).isEqualTo(3);
        bench.items.of(a).add(1);
        bench.items.of(a).add(2);
        assertThat(first.remainingItemCapacity()).isEqualTo(1);
        bench.items.of(b).add(1);
        bench.items.of(b).add(2);
        assertThat(second.remainingItemCapacity()).isEqualTo(1);
        bench.items.of(b).add(3);
        assertThat(first.remainingItemCapacity()).as("the server's five are taken").isZero();
    }

    @Test
    void the_services_register_with_a_dispatcher_once() {
        ServiceDispatcher.Builder builder = ServiceDispatcher.builder();
        bench.services.registerWith(builder);
        assertThatThrownBy(() -> bench.services.registerWith(builder))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("CreateSubscriptionRequest");
        builder.publishParking(bench.services.publishParking());
    }

    @Test
    void closing_the_manager_deletes_everything_and_stops_the_named_publishing_thread() throws Exception {
        FakeItems items = new FakeItems(new SubscriptionStatistics());
        SubscriptionManager manager = SubscriptionManager.builder().itemContainerFactory(items).build();
        SubscriptionServices services = new SubscriptionServices(manager, (channel, header) -> client.session(),
                EncodingLimits.DEFAULT);
        long id = services.createSubscription(client.channel(), new CreateSubscriptionRequest(header(client.token()),
                100, 30, 3, 0, true, (short) 0)).subscriptionId();
        assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
                .contains(ExecutorPublishingScheduler.THREAD_NAME);

        manager.close();

        assertThat(((ExecutorPublishingScheduler) manager.scheduler()).awaitTermination(5_000)).isTrue();
        assertThat(items.of(id).deleteAllCalls).isEqualTo(1);
        assertThat(manager.subscriptionCount()).isZero();
        assertStatus(() -> services.createSubscription(client.channel(), new CreateSubscriptionRequest(
                header(client.token()), 100, 30, 3, 0, true, (short) 0)), StatusCodes.BadServerHalted);
        manager.close();
    }
}
