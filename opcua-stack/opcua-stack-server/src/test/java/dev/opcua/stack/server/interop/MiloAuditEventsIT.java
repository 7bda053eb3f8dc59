package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.discovery.DiscoveryServices;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.session.UserNameIdentityValidator;
import dev.opcua.stack.server.testing.MiloClients;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.identity.UsernameProvider;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.Identifiers;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.FilterOperator;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.ContentFilter;
import org.eclipse.milo.opcua.stack.core.types.structured.ContentFilterElement;
import org.eclipse.milo.opcua.stack.core.types.structured.EventFilter;
import org.eclipse.milo.opcua.stack.core.types.structured.LiteralOperand;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.SimpleAttributeOperand;
import org.eclipse.milo.opcua.stack.core.types.structured.WriteValue;
import org.junit.jupiter.api.Test;

/**
 * Audit events (Part 4, 6.5) seen by Eclipse Milo 1.1.2's client: a subscriber monitors the Server object
 * with an EventFilter selecting AuditEventType's fields and the where clause OfType AuditEventType, while
 * another client fails to log in with a wrong password, logs in, writes a value and calls a method. With
 * auditing on, the subscriber receives the failed and the successful ActivateSession, the
 * AuditWriteUpdateEvent and the AuditUpdateMethodEvent with user, status and node; with auditing off, none.
 */
class MiloAuditEventsIT {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String NS = "urn:test:audit:line";

    /** Selected fields, in this order. */
    private static final String[][] SELECT = {
        {"BaseEventType", "EventType"}, {"BaseEventType", "SourceNode"}, {"AuditEventType", "ClientUserId"},
        {"AuditEventType", "Status"}, {"AuditEventType", "ServerId"}, {"AuditWriteUpdateEventType", "NewValue"},
        {"AuditUpdateMethodEventType", "MethodId"}};

    private static OpcUaServer newServer(boolean auditing) {
        InMemoryNodeManager line = InMemoryNodeManager.builder(NS)
                .folder("Line")
                .variable("Line.Setpoint", BuiltinType.Double, v -> v
                        .value(dev.opcua.stack.core.types.builtin.Variant.ofDouble(10)).writable())
                .method("Line.Start", null, null, (context, inputs) -> new dev.opcua.stack.core.types.builtin.Variant[0],
                        m -> { })
                .build();
        return OpcUaServer.builder()
                .applicationUri("urn:test:audit:server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .requests(2, 8, 100)
                .identities(UserNameIdentityValidator.of(Map.of("alice", "a-secret"), true),
                        List.of(DiscoveryServices.ANONYMOUS,
                                new UserTokenPolicy("username", UserTokenType.UserName, null, null, null)))
                .nodeManager(line)
                .auditing(auditing)
                .build()
                .start();
    }

    private static NodeId type(String name) {
        return switch (name) {
            case "BaseEventType" -> Identifiers.BaseEventType;
            case "AuditEventType" -> Identifiers.AuditEventType;
            case "AuditWriteUpdateEventType" -> Identifiers.AuditWriteUpdateEventType;
            default -> Identifiers.AuditUpdateMethodEventType;
        };
    }

    private static OpcUaSubscription subscribe(OpcUaClient milo, List<Variant[]> received) throws Exception {
        SimpleAttributeOperand[] select = new SimpleAttributeOperand[SELECT.length];
        for (int i = 0; i < SELECT.length; i++) {
            select[i] = new SimpleAttributeOperand(type(SELECT[i][0]), new QualifiedName[] {new QualifiedName(0,
                    SELECT[i][1])}, AttributeId.Value.uid(), null);
        }
        ContentFilter ofTypeAudit = new ContentFilter(new ContentFilterElement[] {new ContentFilterElement(
                FilterOperator.OfType, new ExtensionObject[] {ExtensionObject.encode(milo.getStaticEncodingContext(),
                        new LiteralOperand(new Variant(Identifiers.AuditEventType)))})});
        OpcUaSubscription subscription = new OpcUaSubscription(milo, 50.0);
        subscription.create();
        OpcUaMonitoredItem item = OpcUaMonitoredItem.newEventItem(Identifiers.Server,
                new EventFilter(select, ofTypeAudit));
        item.setEventValueListener((monitoredItem, values) -> received.add(values));
        subscription.addMonitoredItem(item);
        subscription.synchronizeMonitoredItems();
        assertThat(item.getCreateResult()).hasValueSatisfying(status -> assertThat(status.isGood()).isTrue());
        return subscription;
    }

    /** A wrong password, then the right one, a Write and a Call; returns the namespace index of the line. */
    private static int actAsAlice(OpcUaServer server) throws Exception {
        assertThatThrownBy(() -> MiloClients.overNone(server.endpointUrl(), new UsernameProvider("alice", "wrong")))
                .as("a wrong password is refused");
        OpcUaClient alice = MiloClients.overNone(server.endpointUrl(), new UsernameProvider("alice", "a-secret"));
        int ns = server.namespaces().indexOf(NS);
        try {
            assertThat(alice.write(List.of(new WriteValue(new NodeId(ns, "Line.Setpoint"), AttributeId.Value.uid(),
                    null, DataValue.valueOnly(new Variant(42.0))))).getResults()[0].isGood()).isTrue();
            assertThat(alice.call(List.of(new CallMethodRequest(new NodeId(ns, "Line"), new NodeId(ns, "Line.Start"),
                    new Variant[0]))).getResults()[0].getStatusCode().isGood()).isTrue();
        } finally {
            alice.disconnect();
        }
        return ns;
    }

    private static List<Variant[]> ofType(List<Variant[]> events, NodeId type) {
        return events.stream().filter(fields -> type.equals(fields[0].getValue())).toList();
    }

    @Test
    void with_auditing_on_the_subscriber_sees_the_failed_and_the_successful_login_the_write_and_the_call()
            throws Exception {
        OpcUaServer server = newServer(true);
        OpcUaClient subscriber = null;
        try {
            subscriber = MiloClients.anonymousOverNone(server.endpointUrl());
            Object auditing = subscriber.read(0, TimestampsToReturn.Neither, List.of(new ReadValueId(
                    Identifiers.Server_Auditing, AttributeId.Value.uid(), null, QualifiedName.NULL_VALUE)))
                    .getResults()[0].getValue().getValue();
            assertThat(auditing).as("Server.Auditing").isEqualTo(true);
            List<Variant[]> received = new CopyOnWriteArrayList<>();
            subscribe(subscriber, received);

            int ns = actAsAlice(server);

            await("the call's audit event").atMost(WAIT).until(
                    () -> !ofType(received, Identifiers.AuditUpdateMethodEventType).isEmpty());
            List<Variant[]> logins = ofType(received, Identifiers.AuditActivateSessionEventType).stream()
                    .filter(fields -> "alice".equals(fields[2].getValue())).toList();
            assertThat(logins).extracting(fields -> fields[3].getValue()).containsExactly(false, true);
            assertThat(logins).allSatisfy(fields -> {
                assertThat(fields[1].getValue()).isEqualTo(Identifiers.Server);
                assertThat(fields[4].getValue()).isEqualTo("urn:test:audit:server");
            });
            List<Variant[]> writes = ofType(received, Identifiers.AuditWriteUpdateEventType);
            assertThat(writes).hasSize(1);
            assertThat(writes.get(0)[1].getValue()).isEqualTo(new NodeId(ns, "Line.Setpoint"));
            assertThat(writes.get(0)[2].getValue()).isEqualTo("alice");
            assertThat(writes.get(0)[3].getValue()).isEqualTo(true);
            assertThat(writes.get(0)[5].getValue()).isEqualTo(42.0);
            List<Variant[]> calls = ofType(received, Identifiers.AuditUpdateMethodEventType);
            assertThat(calls).hasSize(1);
            assertThat(calls.get(0)[1].getValue()).isEqualTo(new NodeId(ns, "Line"));
            assertThat(calls.get(0)[2].getValue()).isEqualTo("alice");
            assertThat(calls.get(0)[6].getValue()).isEqualTo(new NodeId(ns, "Line.Start"));
            assertThat(ofType(received, Identifiers.AuditOpenSecureChannelEventType)).isNotEmpty();
            assertThat(ofType(received, Identifiers.AuditCreateSessionEventType)).isNotEmpty();
            assertThat(server.statistics().auditEventsRaised()).isGreaterThanOrEqualTo(received.size());
            assertThat(server.statistics().auditEventsDropped()).isZero();
        } finally {
            MiloClients.disconnectAndClose(subscriber, server);
        }
    }

    @Test
    void with_auditing_off_the_subscriber_receives_no_audit_event() throws Exception {
        OpcUaServer server = newServer(false);
        OpcUaClient subscriber = null;
        try {
            subscriber = MiloClients.anonymousOverNone(server.endpointUrl());
            Object auditing = subscriber.read(0, TimestampsToReturn.Neither, List.of(new ReadValueId(
                    Identifiers.Server_Auditing, AttributeId.Value.uid(), null, QualifiedName.NULL_VALUE)))
                    .getResults()[0].getValue().getValue();
            assertThat(auditing).as("Server.Auditing").isEqualTo(false);
            List<Variant[]> received = new CopyOnWriteArrayList<>();
            subscribe(subscriber, received);

            actAsAlice(server);
            Thread.sleep(500); // several publishing intervals: an event would have arrived

            assertThat(received).isEmpty();
            assertThat(server.statistics().auditEventsRaised()).isZero();
        } finally {
            MiloClients.disconnectAndClose(subscriber, server);
        }
    }
}
