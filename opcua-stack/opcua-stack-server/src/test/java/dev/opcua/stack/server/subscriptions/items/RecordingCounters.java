package dev.opcua.stack.server.subscriptions.items;

import java.util.concurrent.atomic.AtomicLong;

/** Counts what the items report to the statistics. */
final class RecordingCounters implements ItemCounters {

    final AtomicLong added = new AtomicLong();
    final AtomicLong removed = new AtomicLong();
    final AtomicLong dropped = new AtomicLong();
    final AtomicLong rejected = new AtomicLong();

    @Override
    public void itemsAdded(int count) {
        added.addAndGet(count);
    }

    @Override
    public void itemsRemoved(int count) {
        removed.addAndGet(count);
    }

    @Override
    public void notificationsDropped(long count) {
        dropped.addAndGet(count);
    }

    @Override
    public void itemsRejected(int count) {
        rejected.addAndGet(count);
    }

    long live() {
        return added.get() - removed.get();
    }
}
