package dev.opcua.stack.server.subscriptions.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.DataItemRequest;
import dev.opcua.stack.client.subscriptions.EventFilters;
import dev.opcua.stack.client.subscriptions.EventItemRequest;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.CloseSessionRequest;
import dev.opcua.stack.core.types.structured.CloseSessionResponse;
import dev.opcua.stack.core.types.structured.Range;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.subscriptions.events.EventNotifierRegistry;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import dev.opcua.stack.server.subscriptions.items.MonitoringAware;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A durable subscription (Part 4, 6.8) with an event item (EventFilter with select and where clauses, Part 4,
 * 7.22.3) and a data item with a percent deadband (Part 8, 6.2) survives a server restart: what both queued while
 * the client was away arrives after TransferSubscriptions, the where clause and the deadband still apply on the
 * restarted server (its EURange looked up again), and new events and values follow.
 */
class DurableEventAndPercentRestartIT {

    private static final String NS = "urn:test:durable:analog";
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void event_items_and_percent_deadband_items_are_restored_with_their_queues_and_filters() throws Exception {
        InMemoryDurableSubscriptionStore store = new InMemoryDurableSubscriptionStore();
        AnalogLevel firstLevel = new AnalogLevel();
        OpcUaServer server = server(0, store, firstLevel);
        int port = server.port();
        OpcUaServer restarted = null;
        ClientResources resources = ClientResources.builder().ioThreads(1).build();
        OpcUaClient client = null;
        try {
            client = OpcUaClient.create(OpcUaClientConfig.builder(server.endpointUrl())
                    .applicationUri("urn:test:durable:client").applicationName("durable event client")
                    .resources(resources).requestTimeout(Duration.ofSeconds(5))
                    .keepAliveInterval(Duration.ofMillis(500))
                    .reconnectDelays(Duration.ofSeconds(1), Duration.ofSeconds(1)).build());
            client.connect().get(10, TimeUnit.SECONDS);
            List<String> messages = Collections.synchronizedList(new ArrayList<>());
            List<Double> levels = Collections.synchronizedList(new ArrayList<>());
            ClientSubscription durable = client.createSubscription(SubscriptionParameters.ofInterval(50)
                    .durable(Duration.ofHours(2))).get(10, TimeUnit.SECONDS);
            durable.createEventItem(EventItemRequest.of(EventNotifierRegistry.SERVER_OBJECT,
                    EventFilters.selectWhereSeverityAtLeast(500, "Message"),
                    (item, fields) -> messages.add(((LocalizedText) fields[0].value()).text()))
                    .withQueue(100, true)).get(10, TimeUnit.SECONDS);
            // 10 % of EURange 0..200: a change must exceed 20
            durable.createDataItem(DataItemRequest.of(firstLevel.level(), 0,
                    (item, value) -> levels.add((Double) value.value().value()))
                    .withPercentDeadband(10).withQueue(100, true)).get(10, TimeUnit.SECONDS);
            await().atMost(WAIT).until(() -> levels.contains(0.0));
            report(server, "before", 700);
            await().atMost(WAIT).until(() -> messages.contains("before"));
            long durableId = durable.subscriptionId();
            NodeId firstSession = client.session().sessionId();

            client.request(h -> new CloseSessionRequest(h, true), CloseSessionResponse.class).get(10, TimeUnit.SECONDS);
            report(server, "queued 1", 700);
            report(server, "too low", 100);
            report(server, "queued 2", 900);
            for (double level : new double[] {10, 30, 45, 60}) {
                firstLevel.set(level);
            }
            server.close();
            assertThat(store.size()).as("the durable subscription is stored").isEqualTo(1);

            AnalogLevel secondLevel = new AnalogLevel();
            restarted = server(port, store, secondLevel);
            OpcUaClient c = client;
            await().atMost(WAIT).until(() -> c.state() == ClientState.CONNECTED
                    && !c.session().sessionId().equals(firstSession) && messages.contains("queued 2")
                    && levels.contains(60.0));
            assertThat(durable.subscriptionId()).as("transferred, not recreated").isEqualTo(durableId);

            secondLevel.set(75); // within the deadband of 60: not reported
            secondLevel.set(90);
            report(restarted, "after", 800);
            report(restarted, "too low after", 200);
            await().atMost(WAIT).until(() -> messages.contains("after") && levels.contains(90.0));
            synchronized (messages) {
                assertThat(messages).as("the queued events once, in order, then the new; the where clause holds")
                        .containsExactly("before", "queued 1", "queued 2", "after");
            }
            synchronized (levels) {
                assertThat(levels).as("the deadband of 10 % of 0..200 applies before and after the restart")
                        .containsExactly(0.0, 30.0, 60.0, 90.0);
            }
        } finally {
            DurableRestartScenario.close(client, server, restarted, resources);
        }
    }

    private static OpcUaServer server(int port, DurableSubscriptionStore store, AnalogLevel level) {
        OpcUaServer server = DurableRestartScenario.durableServer("urn:test:durable:events",
                "durable event restart test server", port, store)
                .nodeManager(level)
                .build()
                .start();
        level.attach(server);
        return server;
    }

    private static void report(OpcUaServer server, String message, int severity) {
        server.events().report(EventNotifierRegistry.SERVER_OBJECT,
                UaEvent.builder(NodeId.ns0(NodeIds.BaseEventType))
                        .sourceNode(EventNotifierRegistry.SERVER_OBJECT)
                        .sourceName("Server")
                        .message(message)
                        .severity(severity)
                        .build());
    }

    /**
     * A Double variable "Level" with an EURange property 0..200 (Part 8, 5.3.2), present from the server's start
     * (the restore looks the EURange up then), reporting every change to the server's broker.
     */
    private static final class AnalogLevel extends NodeStoreNodeManager implements MonitoringAware {

        private volatile int namespaceIndex;
        private volatile OpcUaServer server;

        AnalogLevel() {
            super(List.of(NS), new NodeStore(4));
        }

        @Override
        public void startup(NamespaceTable namespaces) {
            super.startup(namespaces);
            namespaceIndex = namespaces.indexOf(NS);
            NodeId variable = level();
            VariableNode node = new VariableNode(variable, QualifiedName.of(namespaceIndex, "Level"),
                    LocalizedText.of("Level"), null, 0, 0, DataValue.of(Variant.ofDouble(0)),
                    ValueAttributes.scalar(NodeId.ns0(NodeIds.Double)), (short) 1, (short) 1, 0, false, 1);
            node.addReference(UaReference.inverse(NodeId.ns0(NodeIds.Organizes), NodeId.ns0(NodeIds.ObjectsFolder)));
            NodeId hasProperty = NodeId.ns0(NodeIds.HasProperty);
            NodeId property = NodeId.string(namespaceIndex, "Level.EURange");
            VariableNode range = new VariableNode(property, QualifiedName.of(0, "EURange"),
                    LocalizedText.of("EURange"), null, 0, 0,
                    DataValue.of(Variant.of(ExtensionObject.of(new Range(0, 200)))),
                    ValueAttributes.scalar(NodeId.ns0(NodeIds.Range)), (short) 1, (short) 1, 0, false, 1);
            range.addReference(UaReference.inverse(hasProperty, variable));
            range.addReference(UaReference.forward(NodeId.ns0(NodeIds.HasTypeDefinition),
                    NodeId.ns0(NodeIds.PropertyType)));
            node.addReference(UaReference.forward(hasProperty, property));
            store().add(node);
            store().add(range);
        }

        NodeId level() {
            return NodeId.string(namespaceIndex, "Level");
        }

        void attach(OpcUaServer server) {
            this.server = server;
        }

        void set(double value) {
            DataValue changed = DataValue.of(Variant.ofDouble(value), StatusCode.GOOD, DateTime.now(), null);
            ((VariableNode) store().get(level())).setValue(changed);
            server.dataChanges().valueChanged(level(), changed);
        }

        @Override
        public boolean pushesValueChanges(NodeId nodeId) {
            return store().get(nodeId) != null;
        }
    }
}
