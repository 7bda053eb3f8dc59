package dev.opcua.benchmarks.load;

import dev.opcua.benchmarks.server.BenchAddressSpace;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.BrowseRequest;
import dev.opcua.stack.core.types.structured.BrowseResponse;
import dev.opcua.stack.core.types.structured.BrowseResult;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsRequest;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsResponse;
import dev.opcua.stack.core.types.structured.CreateSubscriptionRequest;
import dev.opcua.stack.core.types.structured.CreateSubscriptionResponse;
import dev.opcua.stack.core.types.structured.DataChangeNotification;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateRequest;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.core.types.structured.PublishRequest;
import dev.opcua.stack.core.types.structured.PublishResponse;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.SubscriptionAcknowledgement;
import dev.opcua.stack.core.types.structured.ViewDescription;
import dev.opcua.stack.core.types.structured.WriteRequest;
import dev.opcua.stack.core.types.structured.WriteResponse;
import dev.opcua.stack.core.types.structured.WriteValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The mixed load of the {@code soak} scenario, on raw sessions: Reads (Part 4, 5.11.2), Writes (5.11.4) and
 * Browses (5.9.2) in a fixed mix of ten (six Reads, three Writes, one Browse of the Bench folder) over the
 * worker sessions, either closed-loop (to measure capacity) or paced at a rate; subscriber sessions with one
 * subscription of {@link #ITEMS_PER_SUBSCRIPTION} data-change items on the written variables (Part 4, 5.13,
 * two Publish requests outstanding); one session opened and closed every second (connect, CreateSession,
 * ActivateSession, CloseSession, close); and one flooder that sends {@link #FLOOD_BURST} Reads at once every
 * {@link #FLOOD_PERIOD_S} seconds, far past the server's request queue (its BadServerTooBusy answers are
 * expected and counted apart).
 *
 * <p>Threads: the client's ({@code opcua-client-*}), {@code load-soak-pacer} (the pace and the flood bursts)
 * and {@code load-soak-connect}; {@link #close()} stops them and closes every session.
 */
final class SoakLoad implements AutoCloseable {

    /** Operations a paced worker session may have outstanding; a tick beyond it is counted as shed. */
    static final int MAX_OUTSTANDING = 32;
    static final int ITEMS_PER_SUBSCRIPTION = 10;
    static final int SUBSCRIBERS = 4;
    static final double PUBLISHING_MS = 500;
    static final int FLOOD_BURST = 2000;
    static final int FLOOD_PERIOD_S = 10;
    /** Variables the mix writes and the subscriptions watch: a small set, so that data changes flow. */
    static final int WRITTEN_NODES = SUBSCRIBERS * ITEMS_PER_SUBSCRIPTION;
    private static final long PACE_MS = 10;
    private static final char[] MIX = "RRWRBRWRRW".toCharArray();
    private static final ViewDescription NO_VIEW = new ViewDescription(NodeId.NULL, DateTime.MIN_VALUE, 0);

    private final String url;
    private final ClientResources resources;
    private final LoadSecurity security;
    private final List<Worker> workers = new ArrayList<>();
    private final List<LoadSession> subscribers = new ArrayList<>();
    private final NodeId[] nodeIds;
    private final NodeId[] written;
    private final dev.opcua.stack.core.types.structured.BrowseDescription[] browse;
    private final ScheduledExecutorService pacer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "load-soak-pacer");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicInteger mixIndex = new AtomicInteger();
    private final AtomicLong writeValue = new AtomicLong();
    private LoadSession flooder;
    private Thread connector;
    private volatile boolean running = true;
    private volatile boolean closedLoop;

    /** Completed operations of the mix (Good answers). */
    final LongAdder ops = new LongAdder();
    /** Failed operations of every kind but the flooder's BadServerTooBusy, by status or exception. */
    final ConcurrentHashMap<String, LongAdder> errors = new ConcurrentHashMap<>();
    final LongAdder shed = new LongAdder();
    final LongAdder notifications = new LongAdder();
    final LongAdder connects = new LongAdder();
    final LongAdder floodGood = new LongAdder();
    final LongAdder floodBusy = new LongAdder();

    private SoakLoad(String url, ClientResources resources, LoadSecurity security, NodeId[] nodeIds) {
        this.url = url;
        this.resources = resources;
        this.security = security;
        this.nodeIds = nodeIds;
        this.written = java.util.Arrays.copyOf(nodeIds, Math.min(WRITTEN_NODES, nodeIds.length));
        this.browse = RequestChain.browseOf(true, nodeIds);
    }

    /** Opens the worker, subscriber and flooder sessions and subscribes; nothing is sent yet. */
    static SoakLoad open(LoadOptions o, String url, ClientResources resources, LoadSecurity security)
            throws Exception {
        LoadSession first = LoadSession.open(url, resources, security);
        int ns;
        try {
            ns = first.namespaceIndex(o.namespace());
        } catch (Exception e) {
            first.close();
            throw e;
        }
        NodeId[] nodeIds = new NodeId[o.nodes()];
        for (int i = 0; i < nodeIds.length; i++) {
            nodeIds[i] = NodeId.string(ns, BenchAddressSpace.variableId(i));
        }
        SoakLoad load = new SoakLoad(url, resources, security, nodeIds);
        try {
            load.workers.add(new Worker(first));
            for (int i = 1; i < o.sessions(); i++) {
                load.workers.add(new Worker(LoadSession.open(url, resources, security)));
            }
            for (int i = 0; i < SUBSCRIBERS; i++) {
                LoadSession session = LoadSession.open(url, resources, security);
                load.subscribers.add(session);
                load.subscribe(session, i);
            }
            load.flooder = LoadSession.open(url, resources, security);
            return load;
        } catch (Exception e) {
            load.close();
            throw e;
        }
    }

    /** Closed loop: {@code inflight} operations per worker session, each answer sending the next. */
    void startClosedLoop(int inflight) {
        closedLoop = true;
        for (Worker worker : workers) {
            for (int i = 0; i < inflight; i++) {
                send(worker);
            }
        }
    }

    /** Stops the closed loop: outstanding operations finish and send nothing more. */
    void stopClosedLoop() {
        closedLoop = false;
    }

    /**
     * Paces the mix at {@code opsPerSecond} over the worker sessions, starts the subscriptions' Publish
     * loops, the connect loop and the flood bursts.
     */
    void startPaced(double opsPerSecond) {
        double perTick = opsPerSecond * PACE_MS / 1000.0;
        double[] credit = {0};
        AtomicInteger next = new AtomicInteger();
        pacer.scheduleAtFixedRate(() -> {
            credit[0] += perTick;
            while (credit[0] >= 1 && running) {
                credit[0] -= 1;
                Worker worker = workers.get(Math.floorMod(next.getAndIncrement(), workers.size()));
                if (worker.outstanding.get() >= MAX_OUTSTANDING) {
                    shed.increment();
                } else {
                    send(worker);
                }
            }
        }, PACE_MS, PACE_MS, TimeUnit.MILLISECONDS);
        pacer.scheduleAtFixedRate(this::floodBurst, 1, FLOOD_PERIOD_S, TimeUnit.SECONDS);
        for (LoadSession subscriber : subscribers) {
            publish(subscriber, new ConcurrentLinkedQueue<>());
            publish(subscriber, new ConcurrentLinkedQueue<>());
        }
        connector = new Thread(this::connectLoop, "load-soak-connect");
        connector.setDaemon(true);
        connector.start();
    }

    private void send(Worker worker) {
        if (!running || !worker.session.channel().isOpen()) {
            return;
        }
        worker.outstanding.incrementAndGet();
        char op = MIX[Math.floorMod(mixIndex.getAndIncrement(), MIX.length)];
        LoadSession s = worker.session;
        CompletableFuture<StatusCode[]> answer;
        if (op == 'W') {
            long v = writeValue.incrementAndGet();
            WriteValue[] items = {new WriteValue(written[(int) (v % written.length)], AttributeIds.Value, null,
                    DataValue.of(Variant.ofDouble(v)))};
            answer = s.channel().request(new WriteRequest(s.header(), items), WriteResponse.class)
                    .thenApply(r -> serviceOr(r.responseHeader().serviceResult(), r.results()));
        } else if (op == 'B') {
            answer = s.channel().request(new BrowseRequest(s.header(), NO_VIEW, 0, browse), BrowseResponse.class)
                    .thenApply(r -> serviceOr(r.responseHeader().serviceResult(), browseStatuses(r.results())));
        } else {
            ReadValueId[] items = {new ReadValueId(nodeIds[Math.floorMod(mixIndex.get(), nodeIds.length)],
                    AttributeIds.Value, null, QualifiedName.NULL)};
            answer = s.channel().request(new ReadRequest(s.header(), 0, TimestampsToReturn.Neither, items),
                    ReadResponse.class).thenApply(r -> serviceOr(r.responseHeader().serviceResult(),
                            RequestChain.statuses(r.results())));
        }
        answer.whenComplete((statuses, failure) -> {
            worker.outstanding.decrementAndGet();
            String error = RequestChain.error(null, statuses, failure);
            if (error == null) {
                ops.increment();
            } else if (running) {
                errors.computeIfAbsent(op + " " + error, k -> new LongAdder()).increment();
            }
            if (closedLoop && running) {
                resources.executor().execute(() -> send(worker));
            }
        });
    }

    private static StatusCode[] serviceOr(StatusCode serviceResult, StatusCode[] results) {
        return serviceResult.isGood() ? results : new StatusCode[] {serviceResult};
    }

    private static StatusCode[] browseStatuses(BrowseResult[] results) {
        if (results == null) {
            return null;
        }
        StatusCode[] codes = new StatusCode[results.length];
        for (int i = 0; i < results.length; i++) {
            codes[i] = results[i].statusCode();
        }
        return codes;
    }

    private void subscribe(LoadSession session, int index) throws Exception {
        CreateSubscriptionResponse created = session.request(new CreateSubscriptionRequest(session.header(),
                PUBLISHING_MS, 1000, 10, 0, true, (short) 0), CreateSubscriptionResponse.class)
                .get(30, TimeUnit.SECONDS);
        if (!created.responseHeader().serviceResult().isGood()) {
            throw new IllegalStateException("CreateSubscription failed: " + created.responseHeader().serviceResult());
        }
        MonitoredItemCreateRequest[] items = new MonitoredItemCreateRequest[ITEMS_PER_SUBSCRIPTION];
        for (int i = 0; i < items.length; i++) {
            NodeId node = written[(index * ITEMS_PER_SUBSCRIPTION + i) % written.length];
            items[i] = ItemRequests.dataChange(node, i + 1, PUBLISHING_MS, PUBLISHING_MS / 2);
        }
        CreateMonitoredItemsResponse response = session.request(new CreateMonitoredItemsRequest(session.header(),
                created.subscriptionId(), TimestampsToReturn.Both, items), CreateMonitoredItemsResponse.class)
                .get(30, TimeUnit.SECONDS);
        if (!response.responseHeader().serviceResult().isGood()) {
            throw new IllegalStateException("CreateMonitoredItems failed: " + response.responseHeader().serviceResult());
        }
    }

    /** One Publish loop: each answer acknowledged in the next request (Part 4, 5.13.5). */
    private void publish(LoadSession session, ConcurrentLinkedQueue<SubscriptionAcknowledgement> acks) {
        if (!running || !session.channel().isOpen()) {
            return;
        }
        List<SubscriptionAcknowledgement> pending = new ArrayList<>();
        for (SubscriptionAcknowledgement ack; (ack = acks.poll()) != null; ) {
            pending.add(ack);
        }
        session.request(new PublishRequest(session.header(30_000), pending.toArray(new SubscriptionAcknowledgement[0])),
                PublishResponse.class).whenComplete((response, failure) -> {
                    String error = RequestChain.error(response == null ? null : response.responseHeader(), null,
                            failure);
                    if (error != null) {
                        if (running) {
                            errors.computeIfAbsent("Publish " + error, k -> new LongAdder()).increment();
                            pacer.schedule(() -> publish(session, acks), 1, TimeUnit.SECONDS);
                        }
                        return;
                    }
                    NotificationMessage message = response.notificationMessage();
                    ExtensionObject[] data = message == null ? null : message.notificationData();
                    if (data != null && data.length > 0) {
                        acks.add(new SubscriptionAcknowledgement(response.subscriptionId(), message.sequenceNumber()));
                        for (ExtensionObject body : data) {
                            if (body.decoded() instanceof DataChangeNotification change
                                    && change.monitoredItems() != null) {
                                notifications.add(change.monitoredItems().length);
                            }
                        }
                    }
                    publish(session, acks);
                });
    }

    /** Opens and closes one session a second until the load stops. */
    private void connectLoop() {
        while (running) {
            long t0 = System.nanoTime();
            try {
                LoadSession.open(url, resources, security).closeSessionAndChannel();
                connects.increment();
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                if (running) {
                    errors.computeIfAbsent("connect " + ConnectLoop.describe(e), k -> new LongAdder()).increment();
                }
            }
            long left = TimeUnit.SECONDS.toNanos(1) - (System.nanoTime() - t0);
            if (left > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(left);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** The flooder's burst: BadServerTooBusy is its expected answer past the queue; anything else is an error. */
    private void floodBurst() {
        if (!running || !flooder.channel().isOpen()) {
            return;
        }
        for (int i = 0; i < FLOOD_BURST; i++) {
            ReadValueId[] items = {new ReadValueId(nodeIds[i % nodeIds.length], AttributeIds.Value, null,
                    QualifiedName.NULL)};
            flooder.channel().request(new ReadRequest(flooder.header(), 0, TimestampsToReturn.Neither, items),
                    ReadResponse.class).whenComplete((r, failure) -> {
                        String error = RequestChain.error(r == null ? null : r.responseHeader(),
                                r == null ? null : RequestChain.statuses(r.results()), failure);
                        if (error == null) {
                            floodGood.increment();
                        } else if (error.startsWith("BadServerTooBusy")) {
                            floodBusy.increment();
                        } else if (running) {
                            errors.computeIfAbsent("flood " + error, k -> new LongAdder()).increment();
                        }
                    });
        }
    }

    long errorCount() {
        return errors.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** Operations still outstanding on the worker sessions. */
    int outstanding() {
        return workers.stream().mapToInt(w -> w.outstanding.get()).sum();
    }

    @Override
    public void close() {
        running = false;
        closedLoop = false;
        pacer.shutdownNow();
        if (connector != null) {
            connector.interrupt();
            try {
                connector.join(15_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (Worker worker : workers) {
            worker.session.close();
        }
        subscribers.forEach(LoadSession::close);
        if (flooder != null) {
            flooder.close();
        }
    }

    /** A worker session and its outstanding operations. */
    private record Worker(LoadSession session, AtomicInteger outstanding) {
        Worker(LoadSession session) {
            this(session, new AtomicInteger());
        }
    }
}
