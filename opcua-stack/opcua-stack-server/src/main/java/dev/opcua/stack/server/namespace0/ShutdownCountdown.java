package dev.opcua.stack.server.namespace0;

import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.enumerated.ServerState;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The announced shutdown of Part 5, 6.3.1 and 12.10 (ServerStatusDataType): ServerState becomes
 * Shutdown at once, SecondsTillShutdown counts down once a second and ShutdownReason tells clients
 * why, so that they can move to another server before this one closes its sessions and sockets,
 * which is the caller's job once {@link #finished()} completes.
 *
 * <p>Owns one timer thread, {@value #THREAD_NAME}, ended when the countdown reaches 0 or on
 * {@link #close()}; a zero delay starts no thread.
 */
public final class ShutdownCountdown implements AutoCloseable {

    public static final String THREAD_NAME = "opcua-shutdown";

    private final ServerObject server;
    private final LocalizedText reason;
    private final CompletableFuture<Void> finished = new CompletableFuture<>();
    private final ScheduledExecutorService timer;
    private long secondsLeft;

    ShutdownCountdown(ServerObject server, Duration delay, LocalizedText reason, Duration tick) {
        this.server = Objects.requireNonNull(server, "server");
        this.reason = reason == null ? LocalizedText.NULL : reason;
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative, was " + delay);
        }
        // rounded up: a client told 0 seconds may expect the server gone already
        secondsLeft = (delay.toMillis() + 999) / 1000;
        server.setState(ServerState.Shutdown, secondsLeft, this.reason);
        if (secondsLeft == 0) {
            timer = null;
            finished.complete(null);
            return;
        }
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, THREAD_NAME);
            thread.setDaemon(true); // a forgotten countdown must not keep the JVM alive
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
        timer = executor;
        long nanos = tick.toNanos();
        timer.scheduleAtFixedRate(this::tick, nanos, nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Sets the server to Shutdown with the reason and starts counting SecondsTillShutdown down from
     * {@code delay} (rounded up to whole seconds).
     */
    public static ShutdownCountdown start(ServerObject server, Duration delay, String reason) {
        return new ShutdownCountdown(server, delay, reason == null ? null : LocalizedText.of("en", reason),
                Duration.ofSeconds(1));
    }

    private synchronized void tick() {
        if (finished.isDone()) {
            return;
        }
        secondsLeft--;
        server.setState(ServerState.Shutdown, secondsLeft, reason);
        if (secondsLeft <= 0) {
            finished.complete(null);
            timer.shutdown();
        }
    }

    /** Completes when SecondsTillShutdown reaches 0, or when the countdown is closed early. */
    public CompletableFuture<Void> finished() {
        return finished;
    }

    /** The seconds still announced. */
    public synchronized long secondsLeft() {
        return secondsLeft;
    }

    /** Stops counting (the state stays Shutdown) and ends the timer thread. */
    @Override
    public void close() {
        synchronized (this) {
            finished.complete(null);
        }
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
