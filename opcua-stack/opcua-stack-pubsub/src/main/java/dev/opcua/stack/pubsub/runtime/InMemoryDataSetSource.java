package dev.opcua.stack.pubsub.runtime;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Values the application sets, published by the writer groups on their next interval. Fields never set are
 * published with BadWaitingForInitialData (Part 4, 7.38.2) so that a reader can tell them from real values.
 */
public final class InMemoryDataSetSource implements DataSetSource {

    private static final DataValue NOT_SET = DataValue.ofStatus(StatusCode.of(StatusCodes.BadWaitingForInitialData));

    private final ConcurrentHashMap<String, AtomicReferenceArray<DataValue>> values = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, PublishedDataSet> dataSets = new ConcurrentHashMap<>();

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
}
