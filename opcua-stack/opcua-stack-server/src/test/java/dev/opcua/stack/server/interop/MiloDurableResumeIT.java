package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.stack.client.subscriptions.ResumeToken;
import dev.opcua.stack.client.subscriptions.ResumedSubscription;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.subscriptions.durable.PushedCounter;
import dev.opcua.stack.server.testing.MiloClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An independent client's durable subscription resumed by ours: Eclipse Milo 1.1.2's client creates a subscription
 * on our server, makes it durable (SetSubscriptionDurable, Part 5, 9.3), monitors two counters, lists its items
 * with GetMonitoredItems (Part 5, 9.1) and disconnects; the counters change while no client is there; our client,
 * given only the SubscriptionId and the client handles Milo chose, resumes the subscription and receives every
 * value queued during the absence, in order.
 */
class MiloDurableResumeIT {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final NodeId SERVER = new NodeId(0, 2253);
    private static final NodeId SET_SUBSCRIPTION_DURABLE = new NodeId(0, 12749);
    private static final NodeId GET_MONITORED_ITEMS = new NodeId(0, 11492);
    private static final List<String> COUNTERS = List.of("A", "B");

    private PushedCounter counters;
    private OpcUaServer server;
    private ClientResources resources;
    private dev.opcua.stack.client.OpcUaClient ours;

    @BeforeEach
    void start() {
        counters = new PushedCounter();
        server = counters.startServer(b -> b.applicationUri("urn:test:durable:resume:milo"),
                COUNTERS.toArray(String[]::new));
        resources = ClientResources.builder().ioThreads(1).build();
    }

    @AfterEach
    void stop() {
        if (ours != null) {
            ours.close();
        }
        server.close();
        resources.close();
    }

    @Test
    void our_client_resumes_a_durable_subscription_milo_created_and_gets_every_value_queued_meanwhile()
            throws Exception {
        OpcUaClient milo = MiloClients.anonymousOverNone(server.endpointUrl());
        OpcUaSubscription subscription = new OpcUaSubscription(milo, 50.0);
        subscription.create();
        long id = subscription.getSubscriptionId().orElseThrow().longValue();
        CallMethodResult durable = milo.call(List.of(new CallMethodRequest(SERVER, SET_SUBSCRIPTION_DURABLE,
                new Variant[] {new Variant(uint(id)), new Variant(uint(2))}))).getResults()[0];
        assertThat(durable.getStatusCode().isGood()).as("SetSubscriptionDurable: %s", durable.getStatusCode()).isTrue();

        Map<String, List<Integer>> miloValues = new ConcurrentHashMap<>();
        Map<Integer, String> counterByHandle = new HashMap<>();
        List<OpcUaMonitoredItem> items = new ArrayList<>();
        for (String name : COUNTERS) {
            List<Integer> values = new CopyOnWriteArrayList<>();
            miloValues.put(name, values);
            OpcUaMonitoredItem item = OpcUaMonitoredItem.newDataItem(miloNode(name));
            item.setSamplingInterval(0.0);
            item.setQueueSize(uint(500));
            item.setDataValueListener((i, value) -> values.add((Integer) value.getValue().getValue()));
            items.add(item);
        }
        subscription.addMonitoredItems(items);
        subscription.synchronizeMonitoredItems();
        for (int i = 0; i < items.size(); i++) {
            counterByHandle.put(items.get(i).getClientHandle().orElseThrow().intValue(), COUNTERS.get(i));
        }
        for (int v = 1; v <= 10; v++) {
            setAll(v);
        }
        await().atMost(WAIT).until(() -> miloValues.values().stream().allMatch(l -> l.contains(10)));

        CallMethodResult listed = milo.call(List.of(new CallMethodRequest(SERVER, GET_MONITORED_ITEMS,
                new Variant[] {new Variant(uint(id))}))).getResults()[0];
        assertThat(listed.getStatusCode().isGood()).isTrue();
        assertThat(clientHandles(listed.getOutputArguments()[1].getValue()))
                .as("GetMonitoredItems to an independent client: the handles it chose")
                .containsExactlyInAnyOrderElementsOf(counterByHandle.keySet());
        milo.disconnect();

        for (int v = 11; v <= 100; v++) {
            setAll(v);
        }

        ours = dev.opcua.stack.client.OpcUaClient.create(dev.opcua.stack.client.OpcUaClientConfig
                .builder(server.endpointUrl()).applicationUri("urn:test:durable:resume:ours").resources(resources)
                .requestTimeout(Duration.ofSeconds(5)).build());
        ours.connect().get(10, TimeUnit.SECONDS);
        List<ResumeToken.Item> declared = new ArrayList<>();
        counterByHandle.forEach((handle, name) -> declared.add(new ResumeToken.Item(handle, counters.nodeId(name),
                AttributeIds.Value, null, 0, 500, true, null, MonitoringMode.Reporting)));
        ResumeToken token = new ResumeToken(id, SubscriptionParameters.ofInterval(50),
                subscription.getRevisedPublishingInterval().orElse(50.0), 0, 10, 2, 0, declared);
        Map<String, List<Integer>> ourValues = new ConcurrentHashMap<>();
        COUNTERS.forEach(name -> ourValues.put(name, new CopyOnWriteArrayList<>()));
        ResumedSubscription resumed = ours.subscriptions().resume(token, (item, value) -> ourValues
                .get(item.node().stringId()).add((Integer) value.value().value())).get(10, TimeUnit.SECONDS);
        assertThat(resumed.undeclaredHandles()).isEmpty();
        assertThat(resumed.recreatedHandles()).isEmpty();

        await().atMost(WAIT).until(() -> ourValues.values().stream().allMatch(l -> l.contains(100)));
        for (String name : COUNTERS) {
            List<Integer> values = ourValues.get(name);
            assertThat(values).as("counter %s: in order, none twice", name).isSorted().doesNotHaveDuplicates();
            assertThat(values).as("counter %s: every value set while no client was there", name)
                    .containsAll(range(11, 100));
            assertThat(values.get(0)).as("at most what Milo had and the server still held again")
                    .isGreaterThan(miloValues.get(name).get(0));
        }
    }

    private void setAll(int value) {
        for (String name : COUNTERS) {
            counters.set(name, value);
        }
    }

    private NodeId miloNode(String name) {
        dev.opcua.stack.core.types.builtin.NodeId ours = counters.nodeId(name);
        return new NodeId(ours.namespaceIndex(), ours.stringId());
    }

    private static List<Integer> clientHandles(Object array) {
        List<Integer> handles = new ArrayList<>();
        for (Object h : (Object[]) array) {
            handles.add(((Number) h).intValue());
        }
        return handles;
    }

    private static List<Integer> range(int from, int to) {
        List<Integer> r = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            r.add(i);
        }
        return r;
    }
}
