package dev.opcua.stack.server.subscriptions.sampling;

import java.util.concurrent.locks.LockSupport;

/** How the scheduler thread waits for its next deadline; tests replace it with simulated time. */
interface Sleeper {

    /** Waits for {@code nanos} ({@link Long#MAX_VALUE}: until woken) or until woken; may return early. */
    void sleep(long nanos);

    /** Ends the current or the next {@link #sleep} of {@code sleeper}. */
    void wake(Thread sleeper);

    /** Real time: {@link LockSupport} parking, whose permit keeps a wake that comes before the sleep. */
    Sleeper PARKING = new Sleeper() {
        @Override
        public void sleep(long nanos) {
            if (nanos == Long.MAX_VALUE) {
                LockSupport.park(this);
            } else {
                LockSupport.parkNanos(this, nanos);
            }
        }

        @Override
        public void wake(Thread sleeper) {
            LockSupport.unpark(sleeper);
        }
    };
}
