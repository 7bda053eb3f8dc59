package dev.opcua.stack.client.testing;

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
 * Collects the ByteBuf leaks Netty's detector reports (surefire runs it at {@code paranoid}), so that
 * a client test fails on them rather than leaving a line in the log: the client module's twin of the
 * server module's {@code testing.LeakWatch}. The detector is a private static of
 * {@link AbstractByteBuf}; this test helper reaches it reflectively. Every ByteBuf of the JVM is
 * watched, those of an Eclipse Milo peer included.
 *
 * <pre>{@code
 * @BeforeAll static void watch() { LeakWatch.install(); }
 * @AfterAll static void noLeaks() { LeakWatch.assertNoLeaks(); }
 * }</pre>
 */
public final class LeakWatch {

    private static final List<String> LEAKS = new CopyOnWriteArrayList<>();

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

    /** Starts watching (loads this class) and forgets earlier reports; call before the test allocates. */
    public static void install() {
        LEAKS.clear();
    }

    /** Fails on any leak reported since {@link #install()}, without collecting garbage (cheap, per fuzz input). */
    public static void assertNoLeaksReported() {
        assertThat(LEAKS).as("ByteBuf leaks").isEmpty();
    }

    /**
     * Collects garbage, lets the detector look at the collected buffers (it does so when buffers are
     * allocated) and fails on any leak reported since {@link #install()}.
     */
    public static void assertNoLeaks() {
        // A leaked buffer is reported once the GC has collected it and a later allocation finds its reference
        // queued: every 50 ms, collect and allocate; 200 ms gives at least three collections followed by
        // allocations 50 ms later.
        await("no ByteBuf leak reported").during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(50)).pollInSameThread().untilAsserted(() -> {
                    System.gc();
                    for (int i = 0; i < 100; i++) {
                        ByteBuf buf = ByteBufAllocator.DEFAULT.buffer(16);
                        buf.release();
                    }
                    assertThat(LEAKS).as("ByteBuf leaks").isEmpty();
                });
    }
}
