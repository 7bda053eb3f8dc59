package dev.opcua.spring.boot.pubsub;

import dev.opcua.stack.pubsub.runtime.DataSetListener;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The data set listeners of the application, by reader name: those of {@code @OpcUaPubSubListener} methods,
 * collected while the beans are created, handed to the PubSub service when it starts.
 */
public final class OpcUaPubSubListeners {

    private record Entry(String reader, DataSetListener listener) {
    }

    private final List<Entry> entries = new ArrayList<>();

    /** Adds a listener of one reader. */
    public synchronized void add(String reader, DataSetListener listener) {
        entries.add(new Entry(reader, listener));
    }

    /** Each listener with its reader's name. */
    public synchronized void forEach(BiConsumer<String, DataSetListener> action) {
        entries.forEach(e -> action.accept(e.reader(), e.listener()));
    }

    public synchronized int size() {
        return entries.size();
    }
}
