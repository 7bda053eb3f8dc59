package dev.opcua.stack.server.history.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.history.HistoryRetention;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.subscriptions.events.FieldPath;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every {@link HistoryStore} that keeps events does with them, run against each store. */
public abstract class EventHistoryStoreContract {

    protected static final long SECOND = 10_000_000L;
    protected static final long T0 = DateTime.ofEpochMillis(1_700_000_000_000L).utcTicks();
    protected static final NodeId MOTOR = NodeId.string(2, "Motor");
    protected static final NodeId LINE = NodeId.string(2, "Line");
    private static final NodeId ALARM_TYPE = NodeId.ns0(NodeIds.ExclusiveLevelAlarmType);
    private static final FieldPath ACTIVE_ID = FieldPath.of("ActiveState", "Id");

    protected HistoryStore store;

    protected abstract HistoryStore open() throws Exception;

    @BeforeEach
    void openStore() throws Exception {
        store = open();
    }

    @AfterEach
    void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    /** Event number {@code n} at T0 + {@code seconds}: severity 100 + n, message "event n", ActiveState/Id n odd. */
    protected static UaEvent event(int n, long seconds) {
        return UaEvent.builder(ALARM_TYPE)
                .eventId(ByteString.wrap(new byte[] {(byte) 0x80, 1, (byte) n}))
                .sourceNode(MOTOR)
                .sourceName("Motor")
                .time(DateTime.ofTicks(T0 + seconds * SECOND))
                .receiveTime(DateTime.ofTicks(T0 + seconds * SECOND + 1))
                .message(LocalizedText.of("en", "event " + n))
                .severity(100 + n)
                .nodeId(NodeId.string(2, "Motor.Alarm"))
                .field(ACTIVE_ID, Variant.ofBoolean(n % 2 == 1))
                .build();
    }

    /** Events 0..count-1 on a notifier, one second apart from T0. */
    protected void fill(NodeId notifier, int count) {
        List<EventSample> samples = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            samples.add(new EventSample(notifier, event(i, i)));
        }
        store.appendEvents(samples).join();
    }

    protected static List<String> messages(EventPage page) {
        return page.events().stream().map(e -> e.message().text()).toList();
    }

    @Test
    void keeps_every_field_of_an_event() {
        UaEvent original = event(7, 3);
        store.appendEvents(List.of(new EventSample(MOTOR, original))).join();
        UaEvent read = store.readEvents(EventQuery.forward(MOTOR, T0, T0 + 10 * SECOND, 0)).join().events().get(0);
        assertThat(read.eventId()).isEqualTo(original.eventId());
        assertThat(read.eventType()).isEqualTo(ALARM_TYPE);
        assertThat(read.sourceNode()).isEqualTo(MOTOR);
        assertThat(read.sourceName()).isEqualTo("Motor");
        assertThat(read.time()).isEqualTo(original.time());
        assertThat(read.receiveTime()).isEqualTo(original.receiveTime());
        assertThat(read.message()).isEqualTo(LocalizedText.of("en", "event 7"));
        assertThat(read.severity()).isEqualTo(107);
        assertThat(read.nodeId()).isEqualTo(NodeId.string(2, "Motor.Alarm"));
        assertThat(read.field(ACTIVE_ID)).isEqualTo(Variant.ofBoolean(true));
    }

    @Test
    void reads_a_range_forward_and_backward_of_one_notifier() {
        fill(MOTOR, 10);
        fill(LINE, 3);
        EventPage forward = store.readEvents(EventQuery.forward(MOTOR, T0 + 2 * SECOND, T0 + 5 * SECOND, 0)).join();
        assertThat(messages(forward)).containsExactly("event 2", "event 3", "event 4");
        assertThat(forward.more()).isFalse();
        EventPage backward = store.readEvents(EventQuery.backward(MOTOR, T0 + 5 * SECOND, T0 + 2 * SECOND, 0)).join();
        assertThat(messages(backward)).containsExactly("event 5", "event 4", "event 3");
        assertThat(store.readEvents(EventQuery.forward(NodeId.string(2, "None"), 0, Long.MAX_VALUE, 0)).join()
                .events()).isEmpty();
    }

    @Test
    void pages_with_a_limit_and_resumes_after_the_last_event_even_at_one_time() {
        List<EventSample> sameTime = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            sameTime.add(new EventSample(MOTOR, event(i, 1))); // all at T0 + 1 s: ordered by EventId
        }
        store.appendEvents(sameTime).join();
        fill(LINE, 1);
        EventQuery query = EventQuery.forward(MOTOR, T0, T0 + 2 * SECOND, 2);
        List<String> all = new ArrayList<>();
        EventPage page = store.readEvents(query).join();
        all.addAll(messages(page));
        while (page.more()) {
            query = query.after(page.lastKey());
            page = store.readEvents(query).join();
            all.addAll(messages(page));
        }
        assertThat(all).containsExactly("event 0", "event 1", "event 2", "event 3", "event 4");
        EventQuery back = EventQuery.backward(MOTOR, Long.MAX_VALUE, Long.MIN_VALUE, 3);
        EventPage first = store.readEvents(back).join();
        assertThat(messages(first)).containsExactly("event 4", "event 3", "event 2");
        assertThat(first.more()).isTrue();
        assertThat(messages(store.readEvents(back.after(first.lastKey()).withLimit(0)).join()))
                .containsExactly("event 1", "event 0");
    }

    @Test
    void deletes_events_by_event_id_and_says_which_were_found() {
        fill(MOTOR, 4);
        fill(LINE, 4);
        List<Boolean> deleted = store.deleteEvents(MOTOR, List.of(event(1, 1).eventId(),
                ByteString.wrap(new byte[] {9, 9}), event(3, 3).eventId())).join();
        assertThat(deleted).containsExactly(true, false, true);
        assertThat(messages(store.readEvents(EventQuery.forward(MOTOR, 0, Long.MAX_VALUE, 0)).join()))
                .containsExactly("event 0", "event 2");
        assertThat(store.readEvents(EventQuery.forward(LINE, 0, Long.MAX_VALUE, 0)).join().events()).hasSize(4);
        assertThat(store.deleteEvents(MOTOR, List.of(event(1, 1).eventId())).join()).containsExactly(false);
    }

    @Test
    void an_event_appended_again_is_kept_once_at_its_new_time() {
        fill(MOTOR, 3);
        store.appendEvents(List.of(new EventSample(MOTOR, event(0, 5)))).join();
        assertThat(messages(store.readEvents(EventQuery.forward(MOTOR, 0, Long.MAX_VALUE, 0)).join()))
                .containsExactly("event 1", "event 2", "event 0");
    }

    @Test
    void trim_deletes_events_older_than_the_age() {
        fill(MOTOR, 10);
        long deleted = store.trim(new HistoryRetention(Duration.ofSeconds(4), 0), T0 + 10 * SECOND).join();
        assertThat(deleted).isEqualTo(6L);
        assertThat(messages(store.readEvents(EventQuery.forward(MOTOR, 0, Long.MAX_VALUE, 0)).join()))
                .containsExactly("event 6", "event 7", "event 8", "event 9");
        assertThat(store.deleteEvents(MOTOR, List.of(event(2, 2).eventId())).join()).containsExactly(false);
    }
}
