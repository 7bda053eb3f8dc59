package dev.opcua.stack.history.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.events.EventHistoryStoreContract;
import dev.opcua.stack.server.history.events.EventQuery;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The event contract kept by {@link EmbeddedHistoryStore}, and events kept across a restart. */
class EmbeddedEventHistoryTest extends EventHistoryStoreContract {

    @TempDir
    Path directory;

    @Override
    protected HistoryStore open() {
        return EmbeddedHistoryStore.open(directory, SyncPolicy.OPERATING_SYSTEM);
    }

    @Test
    void events_survive_closing_and_reopening_and_can_still_be_deleted() {
        fill(MOTOR, 5);
        store.close();
        store = EmbeddedHistoryStore.open(directory);
        assertThat(messages(store.readEvents(EventQuery.backward(MOTOR, Long.MAX_VALUE, Long.MIN_VALUE, 2)).join()))
                .containsExactly("event 4", "event 3");
        assertThat(store.deleteEvents(MOTOR, List.of(event(4, 4).eventId())).join()).containsExactly(true);
    }
}
