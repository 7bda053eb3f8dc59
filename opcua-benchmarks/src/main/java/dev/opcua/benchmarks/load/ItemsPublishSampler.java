package dev.opcua.benchmarks.load;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * How many Publish requests our clients keep outstanding (Part 4, 5.13.5: the requests a server parks until a
 * publishing cycle has a message) while the {@code items} scenario's window runs: every {@value #PERIOD_MS} ms,
 * on the thread {@code load-items-publish-sampler}, each session's count. A session with none outstanding at a
 * cycle leaves its subscription late, and a queue of one may then replace a value before it is published. The
 * longest delay of its own wake-ups past the period is the harness JVM's longest stall (a GC pause, a starved
 * CPU), in which our clients' I/O threads answered nothing and sent no Publish request either.
 */
final class ItemsPublishSampler implements AutoCloseable {

    static final long PERIOD_MS = 20;

    private final ItemsHolder[] holders;
    private final Thread thread;
    private volatile boolean running = true;
    // written by the sampler thread only, read after close() joined it
    private long samples;
    private long sum;
    private long zero;
    private int min = Integer.MAX_VALUE;
    private long maxStallNanos;

    private ItemsPublishSampler(ItemsHolder[] holders) {
        this.holders = holders;
        this.thread = new Thread(this::sample, "load-items-publish-sampler");
        thread.setDaemon(true);
    }

    /** Starts sampling; null for raw sessions, which keep their own fixed number of requests. */
    static ItemsPublishSampler start(ItemsHolder[] holders) {
        if (holders.length == 0 || holders[0].publishOutstanding() < 0) {
            return null;
        }
        ItemsPublishSampler sampler = new ItemsPublishSampler(holders);
        sampler.thread.start();
        return sampler;
    }

    private void sample() {
        long last = System.nanoTime();
        while (running) {
            long now = System.nanoTime();
            maxStallNanos = Math.max(maxStallNanos, now - last - TimeUnit.MILLISECONDS.toNanos(PERIOD_MS));
            last = now;
            for (ItemsHolder h : holders) {
                int outstanding = h.publishOutstanding();
                samples++;
                sum += outstanding;
                if (outstanding == 0) {
                    zero++;
                }
                min = Math.min(min, outstanding);
            }
            try {
                TimeUnit.MILLISECONDS.sleep(PERIOD_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Stops sampling and waits for the thread. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(TimeUnit.SECONDS.toMillis(5));
    }

    int min() {
        return samples == 0 ? -1 : min;
    }

    String mean() {
        return samples == 0 ? "n/a" : String.format(Locale.ROOT, "%.2f", (double) sum / samples);
    }

    /** The longest delay of a wake-up of this sampler past its period, ms. */
    long maxStallMillis() {
        return TimeUnit.NANOSECONDS.toMillis(Math.max(0, maxStallNanos));
    }

    /** Of the samples, the share in percent in which a session had no Publish request outstanding. */
    String zeroPercent() {
        return samples == 0 ? "n/a" : String.format(Locale.ROOT, "%.3f", 100.0 * zero / samples);
    }
}
