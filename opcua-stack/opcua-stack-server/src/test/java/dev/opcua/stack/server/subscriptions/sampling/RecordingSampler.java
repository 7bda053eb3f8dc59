package dev.opcua.stack.server.subscriptions.sampling;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;

/** A sampler that records every call: the group, the members, the deadline and the time it ran. */
final class RecordingSampler<T> implements SamplingScheduler.BatchSampler<T> {

    record Call<T>(long intervalNanos, List<T> members, long deadlineNanos, long ranAtNanos) {
    }

    /** What the sampler does besides recording, e.g. spend simulated time. */
    interface Action<T> {
        void run(Call<T> call);
    }

    final List<Call<T>> calls = new CopyOnWriteArrayList<>();
    private final LongSupplier clock;
    private volatile Action<T> action = call -> { };

    RecordingSampler(LongSupplier clock) {
        this.clock = clock;
    }

    void then(Action<T> action) {
        this.action = action;
    }

    @Override
    public void sample(long intervalNanos, List<T> members, long deadlineNanos) {
        Call<T> call = new Call<>(intervalNanos, List.copyOf(members), deadlineNanos, clock.getAsLong());
        calls.add(call);
        action.run(call);
    }

    List<Call<T>> callsOf(long intervalNanos) {
        return calls.stream().filter(c -> c.intervalNanos() == intervalNanos).toList();
    }

    /** The deadlines of a group's calls, relative to {@code originNanos}, in milliseconds. */
    List<Double> deadlinesMillis(long intervalNanos, long originNanos) {
        return callsOf(intervalNanos).stream().map(c -> (c.deadlineNanos() - originNanos) / 1e6).toList();
    }
}
