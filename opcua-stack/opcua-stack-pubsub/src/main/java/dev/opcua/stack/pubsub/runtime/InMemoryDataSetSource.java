package dev.opcua.stack.pubsub.runtime;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;

/**
 * Values the application sets, published by the writer groups on their next interval. Fields never set are
 * published with BadWaitingForInitialData (Part 4, 7.38.2) so that a reader can tell them from real values.
 *
 * <p>Also the application's {@link EventSource}: {@link #emitEvent} hands one event of an events data set
 * ({@link PublishedDataSet#isEvents()}) to the writers that publish it, which send it on their next interval.
 */
public final class InMemoryDataSetSource implements DataSetSource, EventSource {

    private static final DataValue NOT_SET = DataValue.ofStatus(StatusCode.of(StatusCodes.BadWaitingForInitialData));

    private final ConcurrentHashMap<String, AtomicReferenceArray<DataValue>> values = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, PublishedDataSet> dataSets = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Set<Consumer<Variant[]>>> eventSubscribers = new ConcurrentHashMap<>();

    /** Makes the data set's fields settable. */
    public InMemoryDataSetSource add(PublishedDataSet dataSet) {
        dataSets.put(dataSet.name(), dataSet);
        values.computeIfAbsent(dataSet.name(), name -> {
            AtomicReferenceArray<DataValue> array = new AtomicReferenceArray<>(dataSet.fields().size());
            for (int i = 0; i < array.length(); i++) {
                array.set(i, NOT_SET);
            }
            return array;
        });
        return this;
    }

    /** Sets a field's value, stamped now. */
    public void set(String dataSet, String field, Object value) {
        set(dataSet, field, DataValue.of(Variant.of(value)));
    }

    /** Sets a field's value with its status and timestamps. */
    public void set(String dataSet, String field, DataValue value) {
        PublishedDataSet set = dataSets.get(dataSet);
        if (set == null) {
            throw new IllegalArgumentException("no published data set " + dataSet + " in this source");
        }
        int index = set.indexOf(field);
        if (index < 0) {
            throw new IllegalArgumentException("published data set " + dataSet + " has no field " + field);
        }
        values.get(dataSet).set(index, value);
    }

    @Override
    public CompletableFuture<DataValue[]> sample(PublishedDataSet dataSet) {
        AtomicReferenceArray<DataValue> array = values.get(dataSet.name());
        DataValue[] sample = new DataValue[dataSet.fields().size()];
        if (array == null) {
            Arrays.fill(sample, NOT_SET);
        } else {
            for (int i = 0; i < sample.length; i++) {
                sample[i] = array.get(i);
            }
        }
        return CompletableFuture.completedFuture(sample);
    }

    /**
     * Publishes one event of an events data set: its field values in field order, each a {@link Variant} or a
     * value {@link Variant#of} takes; fewer values than fields leave the rest null. Returns how many writers took
     * it (0 when none publishes the data set, or none has started).
     */
    public int emitEvent(String dataSet, Object... values) {
        PublishedDataSet set = dataSets.get(dataSet);
        if (set == null) {
            throw new IllegalArgumentException("no published data set " + dataSet + " in this source");
        }
        if (!set.isEvents()) {
            throw new IllegalArgumentException("published data set " + dataSet + " is not an events data set");
        }
        if (values.length > set.fields().size()) {
            throw new IllegalArgumentException("published data set " + dataSet + " has " + set.fields().size()
                    + " fields, was given " + values.length + " values");
        }
        Variant[] event = new Variant[set.fields().size()];
        for (int i = 0; i < event.length; i++) {
            Object value = i < values.length ? values[i] : null;
            event[i] = value == null ? Variant.NULL : value instanceof Variant v ? v : Variant.of(value);
        }
        Set<Consumer<Variant[]>> subscribers = eventSubscribers.get(dataSet);
        if (subscribers == null) {
            return 0;
        }
        for (Consumer<Variant[]> subscriber : subscribers) {
            subscriber.accept(event.clone());
        }
        return subscribers.size();
    }

    @Override
    public AutoCloseable subscribe(PublishedDataSet dataSet, Consumer<Variant[]> onEvent) {
        if (!dataSet.isEvents()) {
            throw new IllegalArgumentException("published data set " + dataSet.name() + " is not an events data set");
        }
        dataSets.putIfAbsent(dataSet.name(), dataSet);
        Set<Consumer<Variant[]>> subscribers = eventSubscribers.computeIfAbsent(dataSet.name(),
                name -> ConcurrentHashMap.newKeySet());
        subscribers.add(onEvent);
        return () -> subscribers.remove(onEvent);
    }
}
