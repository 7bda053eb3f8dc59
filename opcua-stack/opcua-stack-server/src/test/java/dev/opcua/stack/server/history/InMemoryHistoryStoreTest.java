package dev.opcua.stack.server.history;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InMemoryHistoryStoreTest extends HistoryStoreContract {

    @Override
    protected HistoryStore open() {
        return new InMemoryHistoryStore();
    }

    @Test
    void trim_by_size_deletes_the_oldest_values_of_all_nodes() {
        fill(A, 10);
        java.util.List<HistorySample> b = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) { // half a second after each of A's first five
            b.add(new HistorySample(B, value(i, T0 + i * SECOND + SECOND / 2)));
        }
        store.append(b).join();
        long deleted = store.trim(new HistoryRetention(java.time.Duration.ZERO,
                8L * InMemoryHistoryStore.ESTIMATED_BYTES_PER_VALUE), T0).join();
        assertThat(deleted).isEqualTo(7L);
        assertThat(((InMemoryHistoryStore) store).size()).isEqualTo(8L);
        // the oldest went first, of both nodes: A 0..3 and B 0..2
        assertThat(numbers(store.read(HistoryQuery.forward(A, 0, Long.MAX_VALUE, 0)).join()))
                .containsExactly(4.0, 5.0, 6.0, 7.0, 8.0, 9.0);
        assertThat(numbers(store.read(HistoryQuery.forward(B, 0, Long.MAX_VALUE, 0)).join())).containsExactly(3.0, 4.0);
    }
}
