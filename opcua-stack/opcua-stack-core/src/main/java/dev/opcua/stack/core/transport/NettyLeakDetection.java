package dev.opcua.stack.core.transport;

import io.netty.util.ResourceLeakDetector;
import java.util.function.UnaryOperator;

/**
 * Netty's buffer leak detector set by an application's configuration unless the JVM was started with
 * {@code -Dio.netty.leakDetection.level} (or the older {@code io.netty.leakDetectionLevel}): the command line wins,
 * and Netty has read it already. The starter applies {@code opcua.netty.leak-detection} this way, and the bench
 * server does the same so that plain {@code java} measures what an application gets.
 */
public final class NettyLeakDetection {

    private static final String[] JVM_PROPERTIES = {"io.netty.leakDetection.level", "io.netty.leakDetectionLevel"};

    private NettyLeakDetection() {
    }

    /**
     * Sets {@code level} unless {@code systemProperties} holds one of Netty's own properties.
     *
     * @return whether the level was set
     */
    public static boolean setUnlessChosen(ResourceLeakDetector.Level level, UnaryOperator<String> systemProperties) {
        for (String jvm : JVM_PROPERTIES) {
            if (systemProperties.apply(jvm) != null) {
                return false;
            }
        }
        ResourceLeakDetector.setLevel(level);
        return true;
    }
}
