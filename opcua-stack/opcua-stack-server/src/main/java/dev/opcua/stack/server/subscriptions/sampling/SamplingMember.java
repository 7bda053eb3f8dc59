package dev.opcua.stack.server.subscriptions.sampling;

/** One member of a {@link SamplingGroup}, and the handle that removes it. */
final class SamplingMember<T> implements SamplingScheduler.Registration {

    final T value;
    final SamplingGroup<T> group;
    /** The member's slot in its group, -1 once removed; guarded by the group's lock. */
    int index = -1;

    SamplingMember(SamplingGroup<T> group, T value) {
        this.group = group;
        this.value = value;
    }

    @Override
    public void cancel() {
        group.remove(this);
    }

    @Override
    public long intervalNanos() {
        return group.intervalNanos;
    }
}
