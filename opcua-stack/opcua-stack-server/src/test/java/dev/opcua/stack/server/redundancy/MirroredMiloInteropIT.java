package dev.opcua.stack.server.redundancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.subscriptions.durable.PushedCounter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.identity.AnonymousProvider;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;
import org.eclipse.milo.opcua.stack.core.util.EndpointUtil;
import org.junit.jupiter.api.Test;

/**
 * Eclipse Milo 1.1.2's client, an independent peer, on a HotAndMirrored pair of our servers behind one address (a
 * forwarder standing in for the address moving to the partner): the first server crashes, Milo reconnects and
 * re-activates its session as it does after any lost connection (Part 4, 5.6.3), the partner takes the session over
 * from the shared store, and Milo's subscription goes on with every value once, in order (also those that changed
 * between the crash and the takeover, which the partner sampled while standing by), without Milo re-creating
 * anything; the sequence numbers the partner reserved at the takeover cost Milo one Republish each.
 */
class MirroredMiloInteropIT {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void milos_session_and_subscription_go_on_at_the_partner_after_a_crash() throws Exception {
        InMemorySessionStateStore store = new InMemorySessionStateStore();
        int portA = MirroredPair.freePort();
        int portB = MirroredPair.freePort();
        PushedCounter valueA = new PushedCounter();
        PushedCounter valueB = new PushedCounter();
        OpcUaServer a = MirroredPair.server("urn:test:milo:a", portA, "urn:test:milo:b",
                "opc.tcp://localhost:" + portB + "/", store, valueA);
        OpcUaServer b = MirroredPair.server("urn:test:milo:b", portB, "urn:test:milo:a",
                "opc.tcp://localhost:" + portA + "/", store, valueB);
        RetargetingProxy proxy = new RetargetingProxy(portA);
        String url = "opc.tcp://localhost:" + proxy.port() + "/";
        OpcUaClient client = OpcUaClient.create(url,
                endpoints -> endpoints.stream()
                        .filter(e -> SecurityPolicy.None.getUri().equals(e.getSecurityPolicyUri()))
                        .findFirst().map(e -> EndpointUtil.updateUrl(e, "localhost", proxy.port())),
                transport -> { },
                config -> config.setIdentityProvider(new AnonymousProvider()));
        try {
            client.connect();
            List<Integer> received = Collections.synchronizedList(new ArrayList<>());
            OpcUaSubscription subscription = new OpcUaSubscription(client, 500.0);
            subscription.create();
            var ns = client.getNamespaceTable().getIndex(PushedCounter.NS);
            OpcUaMonitoredItem item = OpcUaMonitoredItem.newDataItem(new NodeId(ns, "Value"));
            item.setQueueSize(UInteger.valueOf(1_000));
            item.setSamplingInterval(0.0); // exception-based: every change is queued (Part 4, 5.12.1.2)
            item.setDataValueListener((i, value) -> received.add((Integer) value.getValue().getValue()));
            subscription.addMonitoredItem(item);
            subscription.synchronizeMonitoredItems();
            NodeId sessionId = client.getSession().getSessionId();
            UInteger subscriptionId = subscription.getSubscriptionId().orElseThrow();

            for (int i = 1; i <= 50; i++) {
                valueA.set("Value", i);
            }
            await().atMost(WAIT).until(() -> received.contains(50));
            for (int i = 51; i <= 100; i++) {
                valueA.set("Value", i);
            }
            assertThat(a.sessionMirror().flushNow()).isTrue();
            long bSessionsCreated = b.statistics().sessionCounters().sessionsCreated();
            await().atMost(WAIT).alias("B samples the item of A's session while standing by")
                    .until(() -> b.sessionMirror().standbyItems() == 1);
            proxy.target(portB);
            a.halt();
            long epoch = System.currentTimeMillis();
            for (int i = 101; i <= 110; i++) { // before the takeover: B's standby item samples them
                valueB.set("Value", i, DateTime.ofEpochMillis(epoch + i));
            }
            assertThat(b.sessionMirror().takenOverSessions()).as("changed before the takeover").isZero();
            await().atMost(WAIT).until(() -> b.sessionMirror().takenOverSessions() == 1);
            for (int i = 111; i <= 120; i++) {
                valueB.set("Value", i, DateTime.ofEpochMillis(epoch + i));
            }
            await().atMost(WAIT).until(() -> received.contains(120));

            assertThat(client.getSession().getSessionId()).as("Milo's session, activated on B").isEqualTo(sessionId);
            assertThat(subscription.getSubscriptionId()).contains(subscriptionId);
            assertThat(b.statistics().sessionCounters().sessionsCreated()).as("no CreateSession on B")
                    .isEqualTo(bSessionsCreated);
            List<Integer> changes;
            synchronized (received) {
                changes = new ArrayList<>(received.isEmpty() || received.get(0) != 0 ? received
                        : received.subList(1, received.size()));
            }
            List<Integer> expected = new ArrayList<>();
            for (int i = 1; i <= 120; i++) {
                expected.add(i);
            }
            assertThat(changes).as("every value once, in order, across the takeover").isEqualTo(expected);
        } finally {
            client.disconnect();
            proxy.close();
            a.close();
            b.close();
        }
    }
}
