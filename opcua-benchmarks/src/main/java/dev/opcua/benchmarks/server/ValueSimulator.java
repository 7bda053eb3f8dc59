package dev.opcua.benchmarks.server;

import java.time.Instant;
import java.util.concurrent.locks.LockSupport;

/**
 * The bench servers' own change source ({@code --simulate N,RATE}): on the daemon thread
 * {@value #THREAD_NAME}, every {@value #TICK_MS} ms on absolute deadlines, it changes the values due at
 * {@code RATE} per second, going round the variables {@code Var.0 .. Var.{N-1}} in order, so that the
 * load harness's {@code sub} scenario measures the notification path (sampling, queues, publishing)
 * without the Write requests of its writer. Value number {@code n} (0, 1, 2 ...) is the Double
 * {@link BenchAddressSpace#SIMULATION_BASE} {@code + n}, set on {@code Var.(n % N)} with the tick's
 * wall-clock time as source timestamp; after each tick the count of values set so far goes to
 * {@link BenchAddressSpace#SIMULATED}. Both servers get the same work per value: one new DataValue
 * stored on the node through the server's own node API.
 *
 * <p>A tick that runs late sets what is owed since (the changes bunch up, as a late writer's do);
 * after a stall of more than {@value #MAX_LATE_TICKS} ticks the schedule restarts from now instead of
 * bursting, and the values owed are never set: the count stays the number of values actually set.
 *
 * <p>With an epoch ({@code --simulate-epoch MILLIS}, the load harness's {@code failover} scenario) value number
 * {@code n} is due at the wall-clock time {@code epoch + n / RATE}: two servers given the same epoch set the
 * same value on the same variable at (nearly) the same moment, so that a client failing over from one to the
 * other can tell from the values which changes it missed. Such a simulator starts at the value due now (it
 * never sets the ones owed from before it started) and a late tick sets everything owed (no restart of the
 * schedule, which would break the alignment). Its source timestamp is not the tick's time but the moment value
 * {@code n} was due ({@link #dueAt}), as a device stamps a value when it measures it: both servers of a pair
 * reading one device report the same value with the same SourceTimestamp (Part 4, 7.11), so that a client which
 * drops what is not newer than what it delivered recognises a value the other server already sent.
 *
 * <p>With the system property {@value #HOLD_PROPERTY}{@code =true} the thread sets nothing until {@link #release()}
 * (the stdin probe's {@code SIMULATE}): the load harness's {@code items} scenario creates its monitored items and
 * measures them idle first; the schedule starts at the release.
 *
 * @param <T> the server's timestamp type
 */
public final class ValueSimulator<T> implements AutoCloseable {

    static final String THREAD_NAME = "bench-simulator";
    /** The system property that holds the simulation until {@link #release()}. */
    public static final String HOLD_PROPERTY = "bench.simulateOnCommand";
    static final long TICK_MS = 10;
    private static final int MAX_LATE_TICKS = 5;

    /** How a server stores simulated values. */
    public interface Target<T> {

        /** The server's timestamp for {@code now}: made once per tick, or once per value with an epoch. */
        T timestamp(Instant now);

        /** Stores {@code value} with source timestamp {@code time} on {@code Var.variable}. */
        void set(int variable, double value, T time);

        /** After a tick: {@code count} values were set so far. */
        void progress(long count);
    }

    private final int variables;
    private final double perSecond;
    private final Target<T> target;
    private final Thread thread;
    private final long epochMillis;
    private volatile boolean stop;
    private volatile boolean held = Boolean.getBoolean(HOLD_PROPERTY);
    private volatile long valuesSet;

    /** Starts simulating: {@code perSecond} values per second over {@code variables} variables. */
    public ValueSimulator(int variables, double perSecond, Target<T> target) {
        this(variables, perSecond, target, -1);
    }

    /**
     * Starts simulating with value {@code n} due at {@code epochMillis + n / perSecond} (wall clock); a negative
     * epoch for the unaligned simulator of {@link #ValueSimulator(int, double, Target)}.
     */
    public ValueSimulator(int variables, double perSecond, Target<T> target, long epochMillis) {
        if (variables < 1 || perSecond <= 0) {
            throw new IllegalArgumentException("simulation needs at least 1 variable and a positive rate, was "
                    + variables + " at " + perSecond + "/s");
        }
        this.variables = variables;
        this.perSecond = perSecond;
        this.target = target;
        this.epochMillis = epochMillis;
        this.thread = new Thread(this::run, THREAD_NAME);
        thread.setDaemon(true);
        thread.start();
    }

    /** Starts a held simulation (see {@value #HOLD_PROPERTY}); nothing when it runs already. */
    public void release() {
        held = false;
        LockSupport.unpark(thread);
    }

    private void run() {
        while (held && !stop) {
            LockSupport.park(this);
        }
        long tickNanos = TICK_MS * 1_000_000;
        long start = System.nanoTime();
        long deadline = start;
        long done = 0;
        boolean aligned = epochMillis >= 0;
        if (aligned) {
            // nanoTime of the epoch; the values due before now are skipped, not set
            start = start - (System.currentTimeMillis() - epochMillis) * 1_000_000;
            done = Math.max(0, (long) ((deadline - start) * perSecond / 1e9));
        }
        while (!stop) {
            deadline += tickNanos;
            long now;
            while ((now = System.nanoTime()) < deadline && !stop) {
                LockSupport.parkNanos(deadline - now);
            }
            if (stop) {
                return;
            }
            if (!aligned && now - deadline > MAX_LATE_TICKS * tickNanos) {
                // restart the schedule: what was owed is not set, so the values stay consecutive
                deadline = now;
                start = now - (long) (done * 1e9 / perSecond);
            }
            long due = (long) ((now - start) * perSecond / 1e9);
            if (due <= done) {
                continue;
            }
            if (aligned) {
                for (long n = done; n < due; n++) {
                    target.set((int) (n % variables), BenchAddressSpace.SIMULATION_BASE + n,
                            target.timestamp(dueAt(epochMillis, perSecond, n)));
                }
            } else {
                T time = target.timestamp(Instant.now());
                for (long n = done; n < due; n++) {
                    target.set((int) (n % variables), BenchAddressSpace.SIMULATION_BASE + n, time);
                }
            }
            done = due;
            valuesSet = done;
            target.progress(done);
        }
    }

    /**
     * The wall-clock moment value number {@code n} of a simulation with epoch {@code epochMillis} at
     * {@code perSecond} values per second is due: {@code epoch + n / perSecond}, to the nanosecond (two values are
     * never given the same moment below 10^9 values per second).
     */
    static Instant dueAt(long epochMillis, double perSecond, long n) {
        long nanos = Math.round(n * (1e9 / perSecond));
        return Instant.ofEpochMilli(epochMillis).plusNanos(nanos);
    }

    /** The values set so far (what {@link Target#progress} was last told), readable from any thread. */
    public long valuesSet() {
        return valuesSet;
    }

    /** Stops the thread and waits for its current tick to end. */
    @Override
    public void close() {
        stop = true;
        LockSupport.unpark(thread);
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
