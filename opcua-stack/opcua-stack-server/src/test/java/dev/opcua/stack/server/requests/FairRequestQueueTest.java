package dev.opcua.stack.server.requests;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fair queue on its own: round-robin across owners, its bounds, the priority lane (no threads). */
class FairRequestQueueTest {

    private static final long A = 1;
    private static final long B = 2;
    private static final long C = 3;

    @Test
    void a_single_request_of_another_owner_is_served_second_behind_a_flood_of_one_hundred() {
        FairRequestQueue queue = new FairRequestQueue(200, 20);
        for (int i = 0; i < 100; i++) {
            assertThat(queue.offer(TestRequest.of(A, "a" + i))).isTrue();
        }
        queue.offer(TestRequest.of(B, "b0"));

        List<String> order = pollAll(queue);

        assertThat(order.indexOf("b0")).isLessThanOrEqualTo(1);
        assertThat(order).hasSize(101);
    }

    @Test
    void owners_take_turns_and_each_owner_keeps_its_order() {
        FairRequestQueue queue = new FairRequestQueue(200, 20);
        for (int i = 0; i < 3; i++) {
            queue.offer(TestRequest.of(A, "a" + i));
        }
        queue.offer(TestRequest.of(B, "b0"));
        queue.offer(TestRequest.of(B, "b1"));
        queue.offer(TestRequest.of(C, "c0"));

        assertThat(pollAll(queue)).containsExactly("a0", "b0", "c0", "a1", "b1", "a2");
        assertThat(queue.owners()).as("owners forgotten once empty").isZero();
    }

    @Test
    void an_owner_that_arrives_waits_for_at_most_one_request_of_every_other_owner() {
        FairRequestQueue queue = new FairRequestQueue(200, 20);
        queue.offer(TestRequest.of(A, "a0"));
        queue.offer(TestRequest.of(A, "a1"));
        queue.offer(TestRequest.of(B, "b0"));
        queue.offer(TestRequest.of(B, "b1"));
        assertThat(name(queue.poll())).isEqualTo("a0");

        queue.offer(TestRequest.of(C, "c0"));

        assertThat(pollAll(queue)).containsExactly("b0", "a1", "c0", "b1");
    }

    @Test
    void a_request_beyond_max_queued_is_refused_and_leaves_no_trace_when_no_owner_has_more_waiting() {
        FairRequestQueue queue = new FairRequestQueue(2, 0);
        assertThat(queue.offer(TestRequest.of(A, "a0"))).isTrue();
        assertThat(queue.offer(TestRequest.of(B, "b0"))).isTrue();

        assertThat(queue.offer(TestRequest.of(B, "b1"))).isFalse();
        assertThat(queue.offer(TestRequest.of(C, "c0"))).as("A has 1, C 0: not two more").isFalse();

        assertThat(queue.takeEvicted()).isNull();
        assertThat(queue.size()).isEqualTo(2);
        assertThat(queue.owners()).isEqualTo(2);
        assertThat(pollAll(queue)).containsExactly("a0", "b0");
    }

    @Test
    void a_full_queue_makes_room_for_an_owner_with_fewer_waiting_by_evicting_the_flooders_oldest() {
        FairRequestQueue queue = new FairRequestQueue(4, 0);
        for (int i = 0; i < 4; i++) {
            assertThat(queue.offer(TestRequest.of(A, "a" + i))).isTrue();
        }
        assertThat(queue.offer(TestRequest.of(A, "a4"))).as("the flooder itself is refused").isFalse();
        assertThat(queue.takeEvicted()).isNull();

        assertThat(queue.offer(TestRequest.of(B, "b0"))).isTrue();
        assertThat(name(queue.takeEvicted())).isEqualTo("a0");
        assertThat(queue.takeEvicted()).as("taken once").isNull();
        assertThat(queue.offer(TestRequest.of(C, "c0"))).isTrue();
        assertThat(name(queue.takeEvicted())).isEqualTo("a1");
        // A has 2 waiting, B 1: B's second request would leave them equal, so it is refused
        assertThat(queue.offer(TestRequest.of(B, "b1"))).isFalse();

        assertThat(queue.size()).isEqualTo(4);
        assertThat(pollAll(queue)).containsExactly("a2", "b0", "c0", "a3");
        assertThat(queue.owners()).isZero();
    }

    @Test
    void evicting_an_owner_empty_leaves_the_ring_intact_and_the_cursor_on_its_owner() {
        FairRequestQueue queue = new FairRequestQueue(3, 0);
        queue.offer(TestRequest.of(A, "a0"));
        queue.offer(TestRequest.of(B, "b0"));
        queue.offer(TestRequest.of(B, "b1"));
        assertThat(name(queue.poll())).isEqualTo("a0"); // cursor now on B
        queue.offer(TestRequest.of(B, "b2"));

        assertThat(queue.offer(TestRequest.of(C, "c0"))).isTrue();
        assertThat(name(queue.takeEvicted())).isEqualTo("b0");

        assertThat(pollAll(queue)).containsExactly("b1", "c0", "b2");
        assertThat(queue.owners()).isZero();
    }

    @Test
    void under_a_sustained_flood_every_quiet_owners_request_is_admitted() {
        FairRequestQueue queue = new FairRequestQueue(50, 0);
        List<String> refusedQuiet = new ArrayList<>();
        int evicted = 0;
        for (int round = 0; round < 1000; round++) {
            for (int i = 0; i < 20; i++) {
                queue.offer(TestRequest.of(A, "flood"));
                evicted += queue.takeEvicted() == null ? 0 : 1;
            }
            long quiet = 10 + round % 19;
            if (!queue.offer(TestRequest.of(quiet, "quiet" + quiet))) {
                refusedQuiet.add("quiet" + quiet);
            }
            evicted += queue.takeEvicted() == null ? 0 : 1;
            for (int served = 0; served < 3; served++) {
                queue.poll(); // the server serves 3 requests per round: a seventh of the offered load
            }
        }
        assertThat(refusedQuiet).isEmpty();
        assertThat(evicted).isPositive();
        assertThat(queue.size()).isLessThanOrEqualTo(50);
    }

    @Test
    void the_priority_lane_is_served_before_a_flood_of_ordinary_requests() {
        FairRequestQueue queue = new FairRequestQueue(200, 20);
        for (int i = 0; i < 50; i++) {
            queue.offer(TestRequest.of(A, "read" + i));
        }
        queue.offer(TestRequest.priority(B, "closeSession"));

        assertThat(name(queue.poll())).isEqualTo("closeSession");
        assertThat(queue.prioritySize()).isZero();
    }

    @Test
    void after_a_burst_of_priority_requests_one_ordinary_request_is_served() {
        FairRequestQueue queue = new FairRequestQueue(200, 20);
        queue.offer(TestRequest.of(A, "read"));
        for (long owner = 10; owner < 16; owner++) {
            queue.offer(TestRequest.priority(owner, "p" + owner));
        }

        assertThat(pollAll(queue)).containsExactly("p10", "p11", "p12", "p13", "read", "p14", "p15");
    }

    @Test
    void priority_requests_beyond_the_owners_share_wait_in_its_ordinary_queue() {
        FairRequestQueue queue = new FairRequestQueue(200, 20);
        for (int i = 0; i < FairRequestQueue.PRIORITY_PER_OWNER + 2; i++) {
            queue.offer(TestRequest.priority(A, "getEndpoints" + i));
        }
        queue.offer(TestRequest.priority(B, "findServers"));

        assertThat(queue.prioritySize()).isEqualTo(FairRequestQueue.PRIORITY_PER_OWNER + 1);
        assertThat(queue.ordinarySize()).isEqualTo(2);
        List<String> order = pollAll(queue);
        assertThat(order.indexOf("findServers")).isLessThanOrEqualTo(FairRequestQueue.PRIORITY_PER_OWNER + 1);
    }

    @Test
    void a_priority_request_that_finds_the_lane_full_waits_in_the_ordinary_queue_or_is_refused() {
        FairRequestQueue queue = new FairRequestQueue(1, 1);
        assertThat(queue.offer(TestRequest.priority(A, "p0"))).isTrue();
        assertThat(queue.offer(TestRequest.priority(B, "p1"))).isTrue();
        assertThat(queue.offer(TestRequest.priority(C, "p2"))).isFalse();

        assertThat(queue.prioritySize()).isEqualTo(1);
        assertThat(queue.ordinarySize()).isEqualTo(1);
    }

    @Test
    void drain_empties_both_lanes_priority_first() {
        FairRequestQueue queue = new FairRequestQueue(10, 10);
        queue.offer(TestRequest.of(A, "a0"));
        queue.offer(TestRequest.of(B, "b0"));
        queue.offer(TestRequest.priority(C, "c0"));

        List<String> drained = queue.drain().stream().map(FairRequestQueueTest::name).toList();

        assertThat(drained).containsExactly("c0", "a0", "b0");
        assertThat(queue.isEmpty()).isTrue();
        assertThat(queue.owners()).isZero();
        assertThat(queue.poll()).isNull();
    }

    @Test
    void thousands_of_owners_come_and_go_without_residue() {
        FairRequestQueue queue = new FairRequestQueue(100, 10);
        for (int round = 0; round < 1_000; round++) {
            for (long owner = 0; owner < 10; owner++) {
                queue.offer(round % 3 == 0 ? TestRequest.priority(owner + round, "x") : TestRequest.of(owner, "x"));
            }
            for (int i = 0; i < 10; i++) {
                assertThat(queue.poll()).isNotNull();
            }
        }
        assertThat(queue.poll()).isNull();
        assertThat(queue.owners()).isZero();
    }

    @Test
    void an_owner_at_its_running_bound_waits_until_one_of_its_requests_is_done_while_others_are_served() {
        FairRequestQueue queue = new FairRequestQueue(200, 20, 1);
        for (int i = 0; i < 3; i++) {
            queue.offer(TestRequest.of(A, "a" + i));
        }
        queue.offer(TestRequest.of(B, "b0"));

        QueuedRequest a0 = queue.poll();
        assertThat(name(a0)).isEqualTo("a0");
        QueuedRequest b0 = queue.poll();
        assertThat(name(b0)).isEqualTo("b0");
        assertThat(queue.poll()).as("A runs one already, B has nothing waiting").isNull();
        assertThat(queue.hasReady()).isFalse();
        assertThat(queue.size()).isEqualTo(2);

        assertThat(queue.done(b0)).as("B waits for nothing").isFalse();
        assertThat(queue.done(a0)).as("A may run its next").isTrue();
        assertThat(queue.hasReady()).isTrue();
        QueuedRequest a1 = queue.poll();
        assertThat(name(a1)).isEqualTo("a1");
        assertThat(queue.poll()).isNull();

        // A new request of a bounded owner waits too; one of an owner with nothing running does not
        queue.offer(TestRequest.of(B, "b1"));
        assertThat(name(queue.poll())).isEqualTo("b1");
        queue.done(a1);
        assertThat(name(queue.poll())).isEqualTo("a2");
    }

    @Test
    void an_owner_at_its_running_bound_still_counts_for_fair_admission_and_loses_its_oldest_to_a_newcomer() {
        FairRequestQueue queue = new FairRequestQueue(3, 0, 1);
        for (int i = 0; i < 3; i++) {
            queue.offer(TestRequest.of(A, "a" + i));
        }
        QueuedRequest a0 = queue.poll(); // A runs one
        assertThat(queue.offer(TestRequest.of(A, "a3"))).isTrue(); // three wait: the queue is full
        assertThat(queue.offer(TestRequest.of(A, "a4"))).isFalse();

        assertThat(queue.offer(TestRequest.of(B, "b0"))).isTrue();
        assertThat(name(queue.takeEvicted())).isEqualTo("a1");
        assertThat(pollAll(queue)).containsExactly("b0");

        assertThat(queue.done(a0)).isTrue();
        QueuedRequest a2 = queue.poll();
        assertThat(name(a2)).isEqualTo("a2");
        assertThat(queue.poll()).isNull();
        queue.done(a2);
        assertThat(pollAll(queue)).containsExactly("a3");
    }

    @Test
    void an_owner_is_forgotten_only_when_nothing_of_it_waits_or_runs() {
        FairRequestQueue queue = new FairRequestQueue(10, 0, 2);
        queue.offer(TestRequest.of(A, "a0"));
        QueuedRequest a0 = queue.poll();
        assertThat(queue.owners()).as("running keeps it").isEqualTo(1);

        assertThat(queue.done(a0)).isFalse();
        assertThat(queue.owners()).isZero();
        assertThat(queue.done(a0)).as("reported once; a second report changes nothing").isFalse();
        assertThat(queue.owners()).isZero();
    }

    @Test
    void without_a_running_bound_done_changes_nothing() {
        FairRequestQueue queue = new FairRequestQueue(10, 0);
        queue.offer(TestRequest.of(A, "a0"));
        queue.offer(TestRequest.of(A, "a1"));
        QueuedRequest a0 = queue.poll();
        assertThat(queue.done(a0)).isFalse();
        assertThat(pollAll(queue)).containsExactly("a1");
        assertThat(queue.owners()).isZero();
    }

    private static List<String> pollAll(FairRequestQueue queue) {
        List<String> names = new ArrayList<>();
        for (QueuedRequest request = queue.poll(); request != null; request = queue.poll()) {
            names.add(name(request));
        }
        return names;
    }

    private static String name(QueuedRequest request) {
        return ((TestRequest) request).name;
    }
}
