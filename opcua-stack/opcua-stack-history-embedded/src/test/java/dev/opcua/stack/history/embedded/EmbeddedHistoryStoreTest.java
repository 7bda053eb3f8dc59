package dev.opcua.stack.history.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.server.history.HistoryQuery;
import dev.opcua.stack.server.history.HistoryRetention;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.HistoryStoreContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedHistoryStoreTest extends HistoryStoreContract {

    @TempDir
    Path directory;

    @Override
    protected HistoryStore open() {
        return EmbeddedHistoryStore.open(directory, SyncPolicy.OPERATING_SYSTEM);
    }

    @Test
    void values_survive_closing_and_reopening() {
        fill(A, 20);
        fill(B, 3);
        store.close();
        store = EmbeddedHistoryStore.open(directory);
        assertThat(numbers(store.read(HistoryQuery.forward(A, 0, Long.MAX_VALUE, 0)).join())).hasSize(20)
                .startsWith(0.0, 1.0).endsWith(19.0);
        assertThat(numbers(store.read(HistoryQuery.backward(B, Long.MAX_VALUE, Long.MIN_VALUE, 2)).join()))
                .containsExactly(2.0, 1.0);
    }

    @Test
    void trim_by_size_shrinks_the_history_to_the_limit() throws Exception {
        fill(A, 20_000);
        long before = ((EmbeddedHistoryStore) store).size();
        store.trim(HistoryRetention.UNLIMITED, 0).join(); // commit, nothing deleted
        long limit = Files.size(((EmbeddedHistoryStore) store).file()) / 2;
        long deleted = store.trim(new HistoryRetention(Duration.ZERO, limit), 0).join();
        assertThat(deleted).isPositive();
        assertThat(((EmbeddedHistoryStore) store).size()).isEqualTo(before - deleted);
        // the newest values are kept
        assertThat(numbers(store.read(HistoryQuery.backward(A, Long.MAX_VALUE, Long.MIN_VALUE, 1)).join()))
                .containsExactly(19_999.0);
        assertThat(store.latestAtOrBefore(A, T0).join()).isEmpty();
    }
}
