package dev.opcua.stack.server.subscriptions.events;

import static dev.opcua.stack.server.subscriptions.events.Filters.SERVER;
import static dev.opcua.stack.server.subscriptions.events.Filters.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.types.builtin.NodeId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Routing reported events to the listeners of notifiers, up the HasNotifier hierarchy to the Server object. */
class EventNotifierRegistryTest {

    private static final NodeId AREA = NodeId.string(2, "Area1");
    private static final NodeId BOILER = NodeId.string(2, "Area1/Boiler1");
    private static final NodeId PUMP = NodeId.string(2, "Pump7");

    private record Received(NodeId notifier, UaEvent event) {
    }

    private static List<Received> collect(EventNotifierRegistry registry, NodeId notifier) {
        List<Received> received = new CopyOnWriteArrayList<>();
        registry.subscribe(notifier, (n, e) -> received.add(new Received(n, e)));
        return received;
    }

    @Test
    void a_listener_receives_the_events_of_its_notifier_only() {
        EventNotifierRegistry registry = new EventNotifierRegistry();
        List<Received> boiler = collect(registry, BOILER);
        List<Received> pump = collect(registry, PUMP);
        UaEvent e = event(100).build();
        registry.report(BOILER, e);
        assertThat(boiler).containsExactly(new Received(BOILER, e));
        assertThat(pump).isEmpty();
    }

    @Test
    void the_server_object_receives_every_event_once() {
        EventNotifierRegistry registry = new EventNotifierRegistry();
        assertThat(registry.root()).isEqualTo(SERVER);
        List<Received> server = collect(registry, SERVER);
        registry.linkNotifier(AREA, BOILER);
        UaEvent a = event(1).build();
        UaEvent b = event(2).build();
        UaEvent c = event(3).build();
        registry.report(SERVER, a);
        registry.report(BOILER, b);
        registry.report(PUMP, c);
        assertThat(server).containsExactly(new Received(SERVER, a), new Received(BOILER, b), new Received(PUMP, c));
    }

    @Test
    void events_propagate_up_the_notifier_hierarchy() {
        EventNotifierRegistry registry = new EventNotifierRegistry();
        registry.linkNotifier(AREA, BOILER);
        List<Received> area = collect(registry, AREA);
        List<Received> boiler = collect(registry, BOILER);
        UaEvent onBoiler = event(1).build();
        UaEvent onArea = event(2).build();
        registry.report(BOILER, onBoiler);
        registry.report(AREA, onArea);
        assertThat(boiler).extracting(Received::event).containsExactly(onBoiler);
        assertThat(area).containsExactly(new Received(BOILER, onBoiler), new Received(AREA, onArea));
        assertThat(registry.parentOf(BOILER)).isEqualTo(AREA);

        registry.unlinkNotifier(BOILER);
        registry.report(BOILER, event(3).build());
        assertThat(area).hasSize(2);
        assertThat(registry.parentOf(BOILER)).isNull();
    }

    @Test
    void cancelling_stops_delivery_and_is_idempotent() {
        EventNotifierRegistry registry = new EventNotifierRegistry();
        AtomicInteger count = new AtomicInteger();
        EventNotifierRegistry.Registration first = registry.subscribe(PUMP, (n, e) -> count.incrementAndGet());
        EventNotifierRegistry.Registration second = registry.subscribe(PUMP, (n, e) -> count.addAndGet(10));
        assertThat(first.notifier()).isEqualTo(PUMP);
        assertThat(registry.listenerCount(PUMP)).isEqualTo(2);
        registry.report(PUMP, event(1).build());
        assertThat(count).hasValue(11);
        first.cancel();
        first.cancel();
        assertThat(registry.listenerCount(PUMP)).isEqualTo(1);
        registry.report(PUMP, event(1).build());
        assertThat(count).hasValue(21);
        second.close();
        assertThat(registry.listenerCount(PUMP)).isZero();
        registry.report(PUMP, event(1).build());
        assertThat(count).hasValue(21);
    }

    @Test
    void is_observed_tells_whether_a_report_would_reach_anyone() {
        EventNotifierRegistry registry = new EventNotifierRegistry();
        registry.linkNotifier(AREA, BOILER);
        assertThat(registry.isObserved(BOILER)).isFalse();
        EventNotifierRegistry.Registration area = registry.subscribe(AREA, (n, e) -> { });
        assertThat(registry.isObserved(BOILER)).isTrue();
        assertThat(registry.isObserved(PUMP)).isFalse();
        area.cancel();
        EventNotifierRegistry.Registration server = registry.subscribe(SERVER, (n, e) -> { });
        assertThat(registry.isObserved(PUMP)).isTrue();
        server.cancel();
        assertThat(registry.isObserved(SERVER)).isFalse();
    }

    @Test
    void links_that_would_form_a_cycle_are_refused() {
        EventNotifierRegistry registry = new EventNotifierRegistry();
        registry.linkNotifier(AREA, BOILER);
        registry.linkNotifier(BOILER, PUMP);
        assertThatThrownBy(() -> registry.linkNotifier(PUMP, AREA))
                .hasMessage("HasNotifier ns=2;s=Pump7 -> ns=2;s=Area1 would form a cycle");
        assertThatThrownBy(() -> registry.linkNotifier(AREA, AREA)).hasMessageContaining("would form a cycle");
        assertThatThrownBy(() -> registry.linkNotifier(AREA, SERVER)).hasMessageContaining("cannot have a parent");
        // Linking under the root explicitly is allowed and delivers once to the root.
        registry.linkNotifier(SERVER, AREA);
        List<Received> server = collect(registry, SERVER);
        registry.report(PUMP, event(1).build());
        assertThat(server).hasSize(1);
    }

    @Test
    void a_failing_listener_does_not_keep_the_event_from_the_others() {
        EventNotifierRegistry registry = new EventNotifierRegistry();
        registry.subscribe(PUMP, (n, e) -> {
            throw new IllegalStateException("listener bug (expected by this test)");
        });
        List<Received> pump = collect(registry, PUMP);
        List<Received> server = collect(registry, SERVER);
        registry.report(PUMP, event(1).build());
        assertThat(pump).hasSize(1);
        assertThat(server).hasSize(1);
    }

    @Test
    void concurrent_subscribers_and_reporters_lose_no_event_of_a_stable_listener() throws Exception {
        EventNotifierRegistry registry = new EventNotifierRegistry();
        AtomicLong stable = new AtomicLong();
        AtomicLong server = new AtomicLong();
        registry.subscribe(PUMP, (n, e) -> stable.incrementAndGet());
        registry.subscribe(SERVER, (n, e) -> server.incrementAndGet());
        int reporters = 4;
        int churners = 4;
        int eventsPerReporter = 20_000;
        UaEvent e = event(1).build();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(reporters);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < churners; t++) {
            int id = t;
            threads.add(new Thread(() -> {
                NodeId own = NodeId.numeric(4, id);
                while (!stop.get()) {
                    EventNotifierRegistry.Registration shared = registry.subscribe(PUMP, (n, ev) -> { });
                    EventNotifierRegistry.Registration mine = registry.subscribe(own, (n, ev) -> { });
                    shared.cancel();
                    mine.cancel();
                }
            }, "registry-test-churn-" + t));
        }
        for (int t = 0; t < reporters; t++) {
            threads.add(new Thread(() -> {
                for (int i = 0; i < eventsPerReporter; i++) {
                    registry.report(PUMP, e);
                }
                done.countDown();
            }, "registry-test-report-" + t));
        }
        threads.forEach(Thread::start);
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        stop.set(true);
        for (Thread thread : threads) {
            thread.join(5_000);
        }
        assertThat(stable).hasValue((long) reporters * eventsPerReporter);
        assertThat(server).hasValue((long) reporters * eventsPerReporter);
        assertThat(registry.listenerCount(PUMP)).isEqualTo(1);
        for (int t = 0; t < churners; t++) {
            assertThat(registry.listenerCount(NodeId.numeric(4, t))).isZero();
        }
    }

    @Test
    void two_hundred_thousand_listeners_of_one_notifier_subscribe_and_cancel_in_linear_time() {
        EventNotifierRegistry registry = new EventNotifierRegistry();
        int n = 200_000;
        AtomicLong received = new AtomicLong();
        List<EventNotifierRegistry.Registration> registrations = new ArrayList<>(n);
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            registrations.add(registry.subscribe(SERVER, (notifier, event) -> received.incrementAndGet()));
        }
        registry.report(PUMP, event(5).build());
        for (EventNotifierRegistry.Registration registration : registrations) {
            registration.cancel();
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(received).hasValue(n);
        assertThat(registry.listenerCount(SERVER)).isZero();
        assertThat(registry.isObserved(PUMP)).isFalse();
        // O(1) each: well under a second; copying a listener array per change took tens of seconds
        assertThat(millis).as("milliseconds for %d subscribes and cancels", n).isLessThan(5_000);
    }
}
