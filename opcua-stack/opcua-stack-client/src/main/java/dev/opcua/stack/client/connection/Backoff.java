package dev.opcua.stack.client.connection;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Delays between reconnect attempts: exponential from the initial delay, doubling per failed attempt
 * up to the maximum, each drawn at random from the upper half of its step ("equal jitter") but never
 * below the initial delay, so that many clients that lost one server do not return in step.
 * Not thread-safe: its owner calls it under its own lock.
 */
final class Backoff {

    private final long initialMillis;
    private final long maxMillis;
    private int failures;

    Backoff(Duration initial, Duration max) {
        this.initialMillis = Math.max(1, initial.toMillis());
        this.maxMillis = Math.max(initialMillis, max.toMillis());
    }

    /** The delay before the next attempt; each call counts one more failed attempt. */
    long nextDelayMillis() {
        long step = initialMillis << Math.min(failures, 30);
        if (step <= 0 || step > maxMillis) {
            step = maxMillis;
        }
        failures++;
        long half = step / 2;
        long delay = half + ThreadLocalRandom.current().nextLong(step - half + 1);
        return Math.max(initialMillis, Math.min(maxMillis, delay));
    }

    /** After a successful connect: the next loss starts again at the initial delay. */
    void reset() {
        failures = 0;
    }

    /** Failed attempts since the last {@link #reset()}. */
    int failures() {
        return failures;
    }
}
