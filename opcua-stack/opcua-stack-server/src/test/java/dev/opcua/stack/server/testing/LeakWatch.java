package dev.opcua.stack.server.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.buffer.AbstractByteBuf;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Collects the ByteBuf leaks Netty's detector reports (tests run it at {@code paranoid}), so that a
 * test can fail on them rather than leave a line in the log. The detector is a private static of
 * {@link AbstractByteBuf}; this test helper reaches it reflectively.
 */
public final class LeakWatch {

    private static final List<String> LEAKS = new CopyOnWriteArrayList<>();
    /** How long {@link #assertNoLeaks()} collects garbage and looks for reports: three rounds after the first. */
    private static final Duration QUIET_WINDOW = Duration.ofMillis(150);

    static {
        try {
            Field field = AbstractByteBuf.class.getDeclaredField("leakDetector");
            field.setAccessible(true);
            ((ResourceLeakDetector<?>) field.get(null)).setLeakListener((type, records) -> LEAKS.add(type + records));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private LeakWatch() {
    }

    /** Starts watching (loads this class); call before the test allocates. */
    public static void install() {
        LEAKS.clear();
    }

    /**
     * Fails on any leak the detector has reported since {@link #install()}, without collecting garbage:
     * cheap enough to call before every fuzz input, so that a leak becomes a finding soon after it happens.
     */
    public static void assertNoLeaksReported() {
        assertThat(LEAKS).as("ByteBuf leaks").isEmpty();
    }

    /**
     * Collects garbage, lets the detector look at the collected buffers (it does so when buffers are
     * allocated) and fails on any leak reported since {@link #install()}. The JVM queues a collected buffer
     * for the detector a moment after the collection, so collecting and allocating go on in rounds 50 ms
     * apart for {@link #QUIET_WINDOW}: a leak of the test's last buffers is reported within it.
     */
    public static void assertNoLeaks() {
        await("no ByteBuf leak reported").during(QUIET_WINDOW).atMost(Duration.ofSeconds(5))
                .pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50))
                .untilAsserted(() -> {
                    System.gc();
                    for (int i = 0; i < 100; i++) {
                        ByteBuf buf = ByteBufAllocator.DEFAULT.buffer(16);
                        buf.release();
                    }
                    assertThat(LEAKS).as("ByteBuf leaks").isEmpty();
                });
    }
}
