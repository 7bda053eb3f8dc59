package dev.opcua.stack.server.requests;

import java.lang.reflect.Method;
import java.util.concurrent.ThreadFactory;

/**
 * Virtual threads (Java 21, JEP 444) for a stack compiled for Java 17: {@code Thread.ofVirtual()} is
 * looked up reflectively, once, when a pool is built; never on the request path.
 */
final class VirtualThreads {

    private VirtualThreads() {
    }

    /** A factory of virtual threads named {@code prefix1}, {@code prefix2}, ...; null before Java 21. */
    static ThreadFactory factory(String prefix) {
        try {
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            Class<?> builderType = Class.forName("java.lang.Thread$Builder");
            Method name = builderType.getMethod("name", String.class, long.class);
            builder = name.invoke(builder, prefix, 1L);
            return (ThreadFactory) builderType.getMethod("factory").invoke(builder);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // Java 17-20, or 19/20 without --enable-preview
        }
    }

    /** Whether {@code thread} is a virtual thread; false before Java 21. */
    static boolean isVirtual(Thread thread) {
        try {
            return (Boolean) Thread.class.getMethod("isVirtual").invoke(thread);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }
}
