package dev.opcua.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C for a command that runs until stopped (subscribe) or may run long (browse, history): the JVM's shutdown hook
 * asks the command to stop and waits, a few seconds at most, for it to print what it has and disconnect.
 */
public final class StopSignal implements AutoCloseable {

    private static final long GRACE_SECONDS = 5;

    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook;

    private StopSignal() {
        hook = new Thread(() -> {
            stopRequested.countDown();
            try {
                finished.await(GRACE_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "opcua-cli-stop");
    }

    /** A signal whose shutdown hook is installed until {@link #close()}. */
    public static StopSignal install() {
        StopSignal signal = new StopSignal();
        Runtime.getRuntime().addShutdownHook(signal.hook);
        return signal;
    }

    /** Whether Ctrl-C (or {@link #request()}) asked the command to stop. */
    public boolean requested() {
        return stopRequested.getCount() == 0;
    }

    /** Asks the command to stop, as Ctrl-C does. */
    public void request() {
        stopRequested.countDown();
    }

    /** Waits until a stop is requested or {@code millis} pass; true when a stop was requested. */
    public boolean await(long millis) throws InterruptedException {
        return stopRequested.await(millis, TimeUnit.MILLISECONDS);
    }

    /** The command is done: a waiting shutdown hook returns, else the hook is removed. */
    @Override
    public void close() {
        finished.countDown();
        if (!requested()) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is already stopping: the hook runs and returns at once
            }
        }
    }
}
