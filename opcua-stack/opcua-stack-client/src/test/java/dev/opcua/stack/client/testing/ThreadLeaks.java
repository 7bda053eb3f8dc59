package dev.opcua.stack.client.testing;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Live threads by name prefix, to prove that a component does not leak threads: take a
 * {@link #snapshot} before, for example, N reconnects, and {@link #assertNoGrowth} after.
 *
 * <pre>{@code
 * ThreadLeaks before = ThreadLeaks.snapshot("opcua-client-");
 * ... reconnect 20 times ...
 * before.assertNoGrowth(Duration.ofSeconds(2));
 * }</pre>
 */
public final class ThreadLeaks {

    private final String prefix;
    private final List<String> names;

    private ThreadLeaks(String prefix, List<String> names) {
        this.prefix = prefix;
        this.names = names;
    }

    /** The names of the live threads whose name starts with {@code prefix}, now. */
    public static ThreadLeaks snapshot(String prefix) {
        return new ThreadLeaks(Objects.requireNonNull(prefix, "prefix"), liveThreadNames(prefix));
    }

    /** The sorted names of the live threads whose name starts with {@code prefix}; duplicates kept. */
    public static List<String> liveThreadNames(String prefix) {
        List<String> names = new ArrayList<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.isAlive() && thread.getName().startsWith(prefix)) {
                names.add(thread.getName());
            }
        }
        names.sort(null);
        return names;
    }

    /**
     * Waits up to {@code within} for every thread of {@code prefix} to end (threads finish a moment
     * after their pool or socket is closed).
     *
     * @throws org.awaitility.core.ConditionTimeoutException naming the threads still alive
     */
    public static void assertNoneAlive(String prefix, Duration within) {
        new ThreadLeaks(prefix, List.of()).assertNoGrowth(within);
    }

    public String prefix() {
        return prefix;
    }

    /** The sorted names at the snapshot. */
    public List<String> names() {
        return names;
    }

    /**
     * Waits up to {@code within} until there are no more live threads of the prefix than at the
     * snapshot (names may differ: pools renumber). Polls in the caller's thread, so that the wait
     * itself starts no thread.
     *
     * @throws org.awaitility.core.ConditionTimeoutException with the names before and now
     */
    public void assertNoGrowth(Duration within) {
        await("no more live '" + prefix + "*' threads than " + names.size()).atMost(within)
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10)).pollInSameThread()
                .untilAsserted(this::assertNoMoreThanAtSnapshot);
    }

    private void assertNoMoreThanAtSnapshot() {
        List<String> now = liveThreadNames(prefix);
        if (now.size() > names.size()) {
            TreeSet<String> added = new TreeSet<>(now);
            added.removeAll(names);
            throw new AssertionError(now.size() + " live '" + prefix + "*' threads, " + names.size() + " before; before "
                    + names + ", now " + now + ", new names " + added);
        }
    }
}
