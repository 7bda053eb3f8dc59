package dev.opcua.benchmarks.load;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.redundancy.FailoverListener;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.ClientSubscriptions;
import dev.opcua.stack.client.subscriptions.DataChangeListener;
import dev.opcua.stack.client.subscriptions.ResumeToken;
import dev.opcua.stack.client.subscriptions.ResumedSubscription;
import dev.opcua.stack.client.transport.ClientResources;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

/**
 * The failover scenario's client: one {@link OpcUaClient} for the whole run, or, with {@code --client-new}, one
 * per life of a client process. {@link #crash} drops the current client as a killed process leaves it (its own
 * {@link ClientResources} closed: sockets gone, no CloseSession, no DeleteSubscriptions) after taking the
 * {@link ResumeToken} the process would have written at its last checkpoint; {@link #restart} connects a new client
 * and resumes the subscription with it ({@link ClientSubscriptions#resume}). Counters sum over every client.
 */
final class FailoverClient implements AutoCloseable {

    private static final long TIMEOUT_S = 10;

    private final OpcUaClientConfig.Builder config;
    private final boolean ownResources;
    private final FailoverListener failovers;
    private volatile OpcUaClient client;
    private ClientResources resources;
    private volatile ClientSubscription subscription;
    private ResumeToken token;
    private int resumes;
    // the counters of the clients dropped so far
    private long retiredRepublished;
    private long retiredLost;
    private long retiredDropped;
    private long retiredHoldBacks;
    private long retiredLongHoldBacks;

    /**
     * @param ownResources whether each client gets its own resources, closed to drop it ({@code --client-new});
     *        otherwise the clients use the shared ones
     */
    FailoverClient(OpcUaClientConfig.Builder config, boolean ownResources, FailoverListener failovers) {
        this.config = config;
        this.ownResources = ownResources;
        this.failovers = failovers;
    }

    /** Creates and connects a client. */
    OpcUaClient connect() throws Exception {
        if (ownResources) {
            resources = ClientResources.builder().ioThreads(1).build();
            config.resources(resources);
        }
        OpcUaClient c = OpcUaClient.create(config.build());
        c.addFailoverListener(failovers);
        client = c;
        c.connect().get(TIMEOUT_S * 3, TimeUnit.SECONDS);
        return c;
    }

    OpcUaClient client() {
        return client;
    }

    /** The scenario's subscription, on the current client. */
    ClientSubscription subscription() {
        return subscription;
    }

    void subscribed(ClientSubscription s) {
        this.subscription = s;
    }

    /**
     * The process dies, at a checkpoint that holds everything it received: once the client noticed its connection
     * gone (the network is cut: nothing more is read), the responses already read were handled and its listeners
     * had them (the delivered sequence number and the listener queue still for 200 ms; at most 10 s), the token is
     * taken, then its resources close under it.
     */
    void crash(PrintStream err) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (client.state() == ClientState.CONNECTED && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(10);
        }
        long delivered = -1;
        int still = 0;
        while (still < 4 && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(50);
            long now = subscription.resumeToken().deliveredSequenceNumber();
            still = now == delivered && subscription.queuedNotifications() == 0 ? still + 1 : 0;
            delivered = now;
        }
        token = subscription.resumeToken();
        OpcUaClient dead = client;
        ClientSubscriptions s = dead.subscriptions();
        retiredRepublished += s.republished();
        retiredLost += s.lostSequenceNumbers();
        retiredDropped += s.droppedNotifications();
        retiredHoldBacks += s.publishHoldBacks();
        retiredLongHoldBacks += s.longPublishHoldBacks();
        resources.close();
        err.printf(Locale.ROOT, "client dropped (resources closed, no CloseSession); resume token: subscription %d, "
                + "%d items, delivered up to sequence number %d%n", token.subscriptionId(), token.items().size(),
                token.deliveredSequenceNumber());
    }

    /** A new client process: connects and resumes the subscription of the token {@link #crash} took. */
    void restart(DataChangeListener listener, PrintStream err) throws Exception {
        connect();
        long start = System.nanoTime();
        ResumedSubscription resumed = client.subscriptions().resume(token, listener).get(TIMEOUT_S * 3,
                TimeUnit.SECONDS);
        subscription = resumed.subscription();
        resumes++;
        err.printf(Locale.ROOT, "new client resumed subscription %d in %.0f ms (%d undeclared, %d created again, "
                + "GetMonitoredItems %s)%n", subscription.subscriptionId(), (System.nanoTime() - start) / 1e6,
                resumed.undeclaredHandles().size(), resumed.recreatedHandles().size(),
                resumed.getMonitoredItemsStatus());
    }

    int resumes() {
        return resumes;
    }

    /** A counter of the subscriptions, summed over every client of the run. */
    long republished() {
        return retiredRepublished + count(ClientSubscriptions::republished);
    }

    long lostSequenceNumbers() {
        return retiredLost + count(ClientSubscriptions::lostSequenceNumbers);
    }

    long droppedNotifications() {
        return retiredDropped + count(ClientSubscriptions::droppedNotifications);
    }

    long publishHoldBacks() {
        return retiredHoldBacks + count(ClientSubscriptions::publishHoldBacks);
    }

    long longPublishHoldBacks() {
        return retiredLongHoldBacks + count(ClientSubscriptions::longPublishHoldBacks);
    }

    private long count(ToLongFunction<ClientSubscriptions> counter) {
        return counter.applyAsLong(client.subscriptions());
    }

    @Override
    public void close() {
        OpcUaClient c = client;
        if (c != null) {
            c.close();
        }
        if (resources != null) {
            resources.close();
        }
    }
}
