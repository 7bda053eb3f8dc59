package dev.opcua.spring.boot.client.listener;

import dev.opcua.spring.boot.client.OpcUaClientLifecycle;
import dev.opcua.spring.boot.client.OpcUaClients;
import dev.opcua.stack.client.OpcUaClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The application's OPC UA listeners, in the manner of Spring for Apache Kafka's
 * {@code KafkaListenerEndpointRegistry}: each registered {@link OpcUaListenerEndpoint} joins the
 * {@link OpcUaListenerContainer} of its connection and publishing interval (one subscription, Part 4,
 * 5.13, with one monitored item per listener), and the containers start and stop with the context.
 *
 * <p>Starts after {@link OpcUaClientLifecycle} (phase {@link #DEFAULT_PHASE}), so the clients are
 * connecting, and stops before it, so the subscriptions are deleted before the sessions close.
 * Starting never blocks: a container creates its subscription once its client is connected. While
 * running, every {@link #setCheckInterval check interval} each container creates what is missing
 * (items the server refused, a subscription the client could not restore).
 *
 * <p>{@link #listeners()} and {@link #errors()} are what the Actuator endpoint shows.
 */
public class OpcUaListenerEndpointRegistry implements SmartLifecycle {

    /** After {@link OpcUaClientLifecycle#DEFAULT_PHASE}: started after the clients, stopped before them. */
    public static final int DEFAULT_PHASE = OpcUaClientLifecycle.DEFAULT_PHASE + 256;

    private static final Log log = LogFactory.getLog(OpcUaListenerEndpointRegistry.class);

    private final OpcUaClients clients;
    private final Function<String, OpcUaListenerDefaults> defaults;
    private final OpcUaListenerErrorHandler errorHandler;
    private final LongAdder errors = new LongAdder();
    private final Map<String, OpcUaListener> listeners = new LinkedHashMap<>();
    private final Map<ContainerKey, OpcUaListenerContainer> containers = new LinkedHashMap<>();
    private Duration checkInterval = Duration.ofSeconds(10);
    private Duration stopTimeout = Duration.ofSeconds(5);
    private ScheduledExecutorService checker;
    private volatile boolean running;

    private record ContainerKey(String connection, Duration publishingInterval, Duration durable) {
    }

    /**
     * @param clients the clients listeners may name
     * @param defaults each connection's defaults by name
     * @param errorHandler where listener errors go
     */
    public OpcUaListenerEndpointRegistry(OpcUaClients clients, Function<String, OpcUaListenerDefaults> defaults,
            OpcUaListenerErrorHandler errorHandler) {
        this.clients = Objects.requireNonNull(clients, "clients");
        this.defaults = Objects.requireNonNull(defaults, "defaults");
        this.errorHandler = Objects.requireNonNull(errorHandler, "errorHandler");
    }

    /** With {@link OpcUaListenerDefaults#STANDARD} for every connection and the logging error handler. */
    public OpcUaListenerEndpointRegistry(OpcUaClients clients) {
        this(clients, name -> OpcUaListenerDefaults.STANDARD, new LoggingOpcUaListenerErrorHandler());
    }

    /** How often each container creates what is missing; default 10 s. */
    public void setCheckInterval(Duration checkInterval) {
        if (checkInterval.isNegative() || checkInterval.isZero()) {
            throw new IllegalArgumentException("checkInterval must be positive: " + checkInterval);
        }
        this.checkInterval = checkInterval;
    }

    /** How long {@link #stop()} waits for the subscriptions to be deleted; default 5 s. */
    public void setStopTimeout(Duration stopTimeout) {
        this.stopTimeout = Objects.requireNonNull(stopTimeout, "stopTimeout");
    }

    /**
     * Adds a listener: to the container of its connection and publishing interval (created on first
     * use); while running, its item is created at once.
     *
     * @throws OpcUaListenerMethodException when the connection does not exist or the id is taken
     */
    public OpcUaListener register(OpcUaListenerEndpoint endpoint) {
        Objects.requireNonNull(endpoint, "endpoint");
        String connection;
        OpcUaClient client;
        try {
            client = clients.resolve(endpoint.connection());
            connection = nameOf(client);
        } catch (IllegalArgumentException e) {
            throw new OpcUaListenerMethodException("OPC UA listener " + endpoint.id() + ": " + e.getMessage(), e);
        }
        OpcUaListenerDefaults connectionDefaults = defaults.apply(connection);
        Duration interval = endpoint.publishingInterval() != null ? endpoint.publishingInterval()
                : connectionDefaults.publishingInterval();
        OpcUaListener listener = new OpcUaListener(endpoint, connection);
        OpcUaListenerContainer container;
        boolean start;
        synchronized (this) {
            if (listeners.containsKey(endpoint.id())) {
                throw new OpcUaListenerMethodException("there is an OPC UA listener with the id '" + endpoint.id()
                        + "' already");
            }
            listeners.put(endpoint.id(), listener);
            container = containers.computeIfAbsent(new ContainerKey(connection, interval, endpoint.durable()),
                    key -> new OpcUaListenerContainer(key.connection(), client, key.publishingInterval(),
                            key.durable(), connectionDefaults, errorHandler, errors));
            start = running;
        }
        container.add(listener);
        if (start) {
            container.start();
        }
        return listener;
    }

    private String nameOf(OpcUaClient client) {
        for (Map.Entry<String, OpcUaClient> entry : clients.asMap().entrySet()) {
            if (entry.getValue() == client) {
                return entry.getKey();
            }
        }
        throw new IllegalArgumentException("the client " + client + " is not among " + clients);
    }

    /** Every listener, in registration order. */
    public synchronized List<OpcUaListener> getListeners() {
        return List.copyOf(listeners.values());
    }

    /** A snapshot of every listener, in registration order. */
    public List<OpcUaListenerInfo> listeners() {
        return getListeners().stream().map(OpcUaListener::info).toList();
    }

    /** The listener with this id ({@code <bean>.<method>} for annotated methods). */
    public synchronized Optional<OpcUaListener> getListener(String id) {
        return Optional.ofNullable(listeners.get(id));
    }

    /** The containers, one per connection and publishing interval. */
    public synchronized List<OpcUaListenerContainer> getContainers() {
        return List.copyOf(containers.values());
    }

    /** Notifications every listener together failed on since start. */
    public long errors() {
        return errors.sum();
    }

    /** Notifications the listeners of one connection failed on since start. */
    public synchronized long errors(String connection) {
        long sum = 0;
        for (OpcUaListener listener : getListeners()) {
            if (listener.connection().equals(connection)) {
                sum += listener.errors();
            }
        }
        return sum;
    }

    @Override
    public void start() {
        List<OpcUaListenerContainer> toStart;
        int count;
        synchronized (this) {
            if (running) {
                return;
            }
            running = true;
            toStart = List.copyOf(containers.values());
            count = listeners.size();
            checker = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "opcua-listener-check");
                t.setDaemon(true);
                return t;
            });
            long millis = checkInterval.toMillis();
            checker.scheduleWithFixedDelay(this::checkAll, millis, millis, TimeUnit.MILLISECONDS);
        }
        toStart.forEach(OpcUaListenerContainer::start);
        if (count > 0) {
            log.info("Started " + count + " OPC UA listeners in " + toStart.size() + " subscriptions");
        }
    }

    private void checkAll() {
        try {
            getContainers().forEach(OpcUaListenerContainer::check);
        } catch (RuntimeException e) {
            log.warn("Checking the OPC UA listener subscriptions failed", e);
        }
    }

    @Override
    public void stop() {
        List<CompletableFuture<Void>> stopped = new ArrayList<>();
        synchronized (this) {
            if (!running) {
                return;
            }
            running = false;
            checker.shutdownNow();
            checker = null;
            containers.values().forEach(c -> stopped.add(c.stop()));
        }
        try {
            CompletableFuture.allOf(stopped.toArray(CompletableFuture[]::new))
                    .get(stopTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.debug("The OPC UA listener subscriptions were not all deleted within " + stopTimeout);
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return DEFAULT_PHASE;
    }
}
