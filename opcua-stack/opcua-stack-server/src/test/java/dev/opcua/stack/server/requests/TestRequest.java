package dev.opcua.stack.server.requests;

/** A queued request with a name, for tests of the queue and the pool. */
final class TestRequest extends QueuedRequest {

    final String name;

    TestRequest(long owner, boolean priority, long arrivalNanos, long timeoutHintMillis, String name) {
        super(owner, priority, arrivalNanos, timeoutHintMillis);
        this.name = name;
    }

    static TestRequest of(long owner, String name) {
        return new TestRequest(owner, false, System.nanoTime(), 0, name);
    }

    static TestRequest priority(long owner, String name) {
        return new TestRequest(owner, true, System.nanoTime(), 0, name);
    }

    @Override
    public String toString() {
        return name;
    }
}
