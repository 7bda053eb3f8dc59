package dev.opcua.stack.server.util;

import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Names threads {@code prefix1}, {@code prefix2}, ... so that thread dumps and profiles tell the
 * server's event loops and workers apart. The threads are {@link FastThreadLocalThread}s: Netty's and
 * the stack's per-thread encoders and buffers are cheapest on them.
 */
public final class NamedThreadFactory implements ThreadFactory {

    private final String prefix;
    private final AtomicInteger counter = new AtomicInteger();

    /** @param prefix the name without the number, e.g. {@code "opcua-worker-"} */
    public NamedThreadFactory(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public Thread newThread(Runnable task) {
        Thread thread = new FastThreadLocalThread(task, prefix + counter.incrementAndGet());
        thread.setDaemon(false);
        return thread;
    }
}
