package dev.opcua.spring.boot.pubsub;

import dev.opcua.stack.pubsub.runtime.PubSubService;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Runs the application's {@link PubSubService} with the context: built when the context starts (after the OPC UA
 * server, whose address space it reads and whose namespace table resolves {@code nsu=} node ids), started, and
 * closed when the context stops, which announces the publisher Offline on the broker.
 *
 * <p>The start waits up to the brokers' longest connect timeout: a broker that cannot be reached does not stop
 * the application (the transport keeps reconnecting and the health shows DOWN), but it is logged.
 */
public class OpcUaPubSubLifecycle implements SmartLifecycle {

    private static final Log log = LogFactory.getLog(OpcUaPubSubLifecycle.class);

    private final Supplier<PubSubService> factory;
    private final Duration startTimeout;
    private final Consumer<PubSubService> started;
    private volatile PubSubService service;

    /**
     * @param factory builds the service (throws for a bad configuration, which fails the start)
     * @param startTimeout how long the start waits for the brokers
     */
    public OpcUaPubSubLifecycle(Supplier<PubSubService> factory, Duration startTimeout) {
        this(factory, startTimeout, null);
    }

    /**
     * @param factory builds the service (throws for a bad configuration, which fails the start)
     * @param startTimeout how long the start waits for the brokers
     * @param started called with the service after each start, whether or not every broker answered in time
     *        (such as to show it in the server's information model); null for nothing
     */
    public OpcUaPubSubLifecycle(Supplier<PubSubService> factory, Duration startTimeout,
            Consumer<PubSubService> started) {
        this.factory = factory;
        this.startTimeout = startTimeout;
        this.started = started;
    }

    /** The running service, or null before the context started it. */
    public PubSubService getService() {
        return service;
    }

    @Override
    public synchronized void start() {
        if (service != null) {
            return;
        }
        PubSubService built = factory.get();
        service = built;
        try {
            built.start().get(startTimeout.toMillis(), TimeUnit.MILLISECONDS);
            log.info("OPC UA PubSub started: " + built.connectionStates());
        } catch (TimeoutException e) {
            log.warn("OPC UA PubSub: the broker did not answer within " + startTimeout.toMillis()
                    + " ms; the transport keeps trying and publishes once connected");
        } catch (ExecutionException e) {
            log.warn("OPC UA PubSub: " + e.getCause().getMessage() + "; the transport keeps trying");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (started != null) {
            started.accept(built);
        }
    }

    @Override
    public synchronized void stop() {
        PubSubService running = service;
        service = null;
        if (running != null) {
            running.close();
        }
    }

    @Override
    public boolean isRunning() {
        return service != null;
    }

    @Override
    public int getPhase() {
        return DEFAULT_PHASE;
    }
}
