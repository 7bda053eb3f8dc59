package dev.opcua.spring.boot.autoconfigure.transport;

import dev.opcua.stack.core.transport.NettyLeakDetection;
import io.netty.util.ResourceLeakDetector;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.apache.commons.logging.Log;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertyResolver;

/**
 * Sets Netty's buffer leak detector from {@code opcua.netty.leak-detection} (default {@code disabled}) before the
 * application creates its first buffer, unless the JVM was started with {@code -Dio.netty.leakDetection.level} (or
 * the older {@code io.netty.leakDetectionLevel}), which wins.
 *
 * <p>Why off by default: Netty's own default samples one buffer in 128, records a stack trace for each and wraps
 * it, so that the buffer calls of the hot path see two classes and compile less tightly; that cost 14 % of the
 * server's CPU for a Read of one value (docs/OPERATIONS.md, "JVM options"). The stack's tests run the detector at
 * {@code paranoid}; an application that wants it in production sets {@code simple}.
 */
public class NettyLeakDetectionEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

    /** The property. */
    public static final String KEY = "opcua.netty.leak-detection";

    private final Log log;

    public NettyLeakDetectionEnvironmentPostProcessor(DeferredLogFactory logFactory) {
        this.log = logFactory.getLog(NettyLeakDetectionEnvironmentPostProcessor.class);
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        ResourceLeakDetector.Level level = apply(environment, System::getProperty);
        if (level != null) {
            log.info("Netty leak detection " + level.name().toLowerCase(Locale.ROOT) + " (" + KEY + ")");
        }
    }

    /** @return the level set, or null when the JVM's own property decides */
    static ResourceLeakDetector.Level apply(PropertyResolver environment, UnaryOperator<String> systemProperties) {
        ResourceLeakDetector.Level level = parse(environment.getProperty(KEY, "disabled").trim());
        return NettyLeakDetection.setUnlessChosen(level, systemProperties) ? level : null;
    }

    static ResourceLeakDetector.Level parse(String value) {
        for (ResourceLeakDetector.Level level : ResourceLeakDetector.Level.values()) {
            if (level.name().equalsIgnoreCase(value)) {
                return level;
            }
        }
        throw new InvalidOpcUaTransportPropertyException(KEY, value, "not a level of Netty's leak detector",
                Arrays.stream(ResourceLeakDetector.Level.values()).map(l -> l.name().toLowerCase(Locale.ROOT))
                        .collect(Collectors.joining(", ")));
    }

    /** After the configuration files are read, so that application.yml can set the key. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
