package dev.opcua.spring.boot.server.annotation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.ushort;

import dev.opcua.spring.boot.testing.MiloClients;
import dev.opcua.stack.server.OpcUaServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.Identifiers;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodResult;
import org.eclipse.milo.opcua.stack.core.types.structured.ContentFilter;
import org.eclipse.milo.opcua.stack.core.types.structured.ContentFilterElement;
import org.eclipse.milo.opcua.stack.core.types.structured.EventFilter;
import org.eclipse.milo.opcua.stack.core.types.structured.SimpleAttributeOperand;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A {@link UaLimitAlarm} on a bean's {@link UaVariable} becomes an ExclusiveLimitAlarm (Part 9,
 * 5.8.19) whose events Eclipse Milo 1.1.2's client receives on the variable's object when the bean's
 * value crosses a limit, and acknowledges through Call; a {@link UaOffNormalAlarm} becomes an
 * OffNormalAlarm (Part 9, 5.8.24.2) with its NormalState. {@link UaBeanAlarmDeclarerTest} has the
 * wrong declarations.
 */
class UaLimitAlarmMiloIT {

    private static final String NS = "urn:test:annotations:alarms";

    static final class Motor {
        @UaVariable
        @UaLimitAlarm(high = 80, highHigh = 95, highSeverity = 650)
        volatile double temperature = 40;

        @UaVariable
        @UaOffNormalAlarm(normalValue = "false", severity = 700)
        volatile boolean overheated;
    }

    @OpcUaNamespace(value = NS, name = "Filler")
    static final class Filler {
        @UaObject
        final Motor motor = new Motor();
    }

    private static final Filler filler = new Filler();
    private static OpcUaServer server;
    private static OpcUaClient client;

    @BeforeAll
    static void start() throws Exception {
        OpcUaAnnotatedNodeManagers managers = OpcUaAnnotatedNodeManagers.of(Map.of("filler", filler));
        assertThat(managers.conditionManagers()).hasSize(1);
        OpcUaServer.Builder builder = OpcUaServer.builder()
                .applicationUri("urn:test:annotations:alarms:server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .requests(2, 8, 100);
        managers.registerWith(builder);
        server = builder.build().start();
        client = MiloClients.anonymousOverNone(server.endpointUrl());
    }

    @AfterAll
    static void stop() throws Exception {
        if (client != null) {
            client.disconnect();
        }
        if (server != null) {
            server.close();
        }
    }

    private static SimpleAttributeOperand field(NodeId type, String... names) {
        QualifiedName[] path = new QualifiedName[names.length];
        for (int i = 0; i < names.length; i++) {
            path[i] = new QualifiedName(0, names[i]);
        }
        return new SimpleAttributeOperand(type, path, AttributeId.Value.uid(), null);
    }

    /** Waits up to 10 s for an event of {@code received} that passes {@code test}. */
    private static void awaitEvent(String what, List<Variant[]> received, Predicate<Variant[]> test) {
        await(what).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                .until(() -> received.stream().anyMatch(test));
    }

    @Test
    void milo_receives_the_alarm_of_the_annotated_variable_on_its_object_and_acknowledges_it() throws Exception {
        NodeId motor = new NodeId(server.namespaces().indexOf(NS), "Filler.Motor");
        NodeId alarm = new NodeId(server.namespaces().indexOf(OpcUaAnnotatedNodeManager.alarmsNamespaceUri(NS)),
                "Filler.Motor.TemperatureAlarm");
        List<Variant[]> received = new CopyOnWriteArrayList<>();
        OpcUaSubscription subscription = new OpcUaSubscription(client, 50.0);
        subscription.create();
        OpcUaMonitoredItem item = OpcUaMonitoredItem.newEventItem(motor, new EventFilter(new SimpleAttributeOperand[] {
            field(Identifiers.BaseEventType, "EventId"), field(Identifiers.BaseEventType, "Severity"),
            field(Identifiers.AlarmConditionType, "ActiveState", "Id"),
            field(Identifiers.AcknowledgeableConditionType, "AckedState", "Id"),
            new SimpleAttributeOperand(Identifiers.ConditionType, new QualifiedName[0], AttributeId.NodeId.uid(), null),
            field(Identifiers.ConditionType, "ConditionName")}, new ContentFilter(new ContentFilterElement[0])));
        item.setEventValueListener((monitoredItem, values) -> received.add(values));
        subscription.addMonitoredItem(item);
        subscription.synchronizeMonitoredItems();
        assertThat(item.getCreateResult()).hasValueSatisfying(status -> assertThat(status.isGood()).isTrue());

        filler.motor.temperature = 88.5;

        awaitEvent("the High alarm arrives on the motor object", received,
                e -> Boolean.TRUE.equals(e[2].getValue()));
        Variant[] raised = received.stream().filter(e -> Boolean.TRUE.equals(e[2].getValue())).findFirst().orElseThrow();
        assertThat(raised[1].getValue()).isEqualTo(ushort(650));
        assertThat(raised[4].getValue()).isEqualTo(alarm);
        assertThat(raised[5].getValue()).isEqualTo("TemperatureAlarm");
        CallMethodResult ack = client.call(List.of(new CallMethodRequest(alarm,
                Identifiers.AcknowledgeableConditionType_Acknowledge,
                new Variant[] {raised[0], new Variant(LocalizedText.english("on it"))}))).getResults()[0];
        assertThat(ack.getStatusCode().isGood()).as("Acknowledge: " + ack.getStatusCode()).isTrue();
        awaitEvent("the acknowledged state arrives", received, e -> Boolean.TRUE.equals(e[3].getValue()));
        assertThat(client.readValue(0, TimestampsToReturn.Neither, new NodeId(alarm.getNamespaceIndex(),
                "Filler.Motor.TemperatureAlarm.HighLimit")).getValue().getValue()).isEqualTo(80.0);
        subscription.delete();
    }

    @Test
    void an_off_normal_alarm_goes_active_when_the_bean_leaves_its_normal_value() throws Exception {
        int alarms = server.namespaces().indexOf(OpcUaAnnotatedNodeManager.alarmsNamespaceUri(NS));
        NodeId normalState = (NodeId) client.readValue(0, TimestampsToReturn.Neither,
                new NodeId(alarms, "Filler.Motor.OverheatedAlarm.NormalState")).getValue().getValue();
        assertThat(normalState).isEqualTo(new NodeId(alarms, "Filler.Motor.OverheatedAlarm.NormalValue"));
        assertThat(client.readValue(0, TimestampsToReturn.Neither, normalState).getValue().getValue()).isEqualTo(false);
        NodeId active = new NodeId(alarms, "Filler.Motor.OverheatedAlarm.ActiveState.Id");
        assertThat(client.readValue(0, TimestampsToReturn.Neither, active).getValue().getValue()).isEqualTo(false);

        filler.motor.overheated = true;

        await("the alarm goes active").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> Boolean.TRUE.equals(client.readValue(0, TimestampsToReturn.Neither, active)
                        .getValue().getValue()));
        assertThat(client.readValue(0, TimestampsToReturn.Neither, new NodeId(alarms,
                "Filler.Motor.OverheatedAlarm.Retain")).getValue().getValue()).isEqualTo(true);
        filler.motor.overheated = false;
    }
}
