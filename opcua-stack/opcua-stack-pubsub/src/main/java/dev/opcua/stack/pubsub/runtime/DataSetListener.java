package dev.opcua.stack.pubsub.runtime;

/** Receives the data set messages of a reader, on the transport's thread: hand long work to an executor. */
@FunctionalInterface
public interface DataSetListener {

    void onDataSet(ReceivedDataSet dataSet);
}
