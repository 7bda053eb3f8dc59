package dev.opcua.spring.boot.server.annotation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.spring.boot.testing.MiloClients;
import dev.opcua.stack.server.OpcUaServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.Identifiers;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseDirection;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseResultMask;
import org.eclipse.milo.opcua.stack.core.types.enumerated.NodeClass;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseResult;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodResult;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.ReferenceDescription;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ApplicationEventPublisher;

/**
 * Eclipse Milo 1.1.2's client against an {@link OpcUaServer} on port 0 whose only application
 * nodes come from an annotated bean: it browses the object tree, reads and writes values, calls
 * methods and subscribes, both to a variable the bean signals and to one it does not.
 */
class OpcUaAnnotatedNodeManagerMiloIT {

    private static final String NS = "urn:test:annotations:filler";

    enum MachineState { IDLE, RUNNING }

    record Production(long bottles, String message) {
    }

    static final class Motor {
        @UaVariable(description = "winding temperature in °C")
        volatile double temperature = 40;
    }

    @OpcUaNamespace(value = NS, name = "Filler", description = "bottle filler")
    static final class Filler {

        private final ApplicationEventPublisher events;

        @UaVariable(access = UaAccess.READ_WRITE, signalsChanges = true, description = "conveyor speed in m/s")
        volatile double speed = 1.5;

        @UaVariable
        volatile long bottles = 7;

        @UaVariable
        volatile String[] recipes = {"cola", "water"};

        @UaObject(description = "main drive")
        final Motor motor = new Motor();

        private volatile MachineState state = MachineState.IDLE;
        private volatile double limit = 10;

        Filler(ApplicationEventPublisher events) {
            this.events = events;
        }

        @UaVariable
        public MachineState getState() {
            return state;
        }

        @UaVariable(access = UaAccess.READ_WRITE)
        public double getLimit() {
            return limit;
        }

        public void setLimit(double limit) {
            if (limit < 0) {
                throw new IllegalArgumentException("limit must be 0 or more, was " + limit);
            }
            this.limit = limit;
        }

        @UaVariable(access = UaAccess.READ_WRITE)
        public int getBroken() {
            return 0;
        }

        public void setBroken(int value) {
            throw new UnsupportedOperationException("the broken setter always fails");
        }

        void changeSpeed(double value) {
            speed = value;
            events.publishEvent(new UaValueChangedEvent(this, "speed"));
        }

        @UaMethod(description = "starts the line")
        public void start() {
            if (state == MachineState.RUNNING) {
                throw new IllegalStateException("the line runs already");
            }
            state = MachineState.RUNNING;
        }

        @UaMethod(description = "counts filled bottles")
        public synchronized Production fill(@UaArgument(name = "Count", description = "bottles filled") int count,
                String batch) {
            bottles += count;
            return new Production(bottles, batch + ": " + count);
        }

        @UaMethod
        public double average(double[] samples) {
            double sum = 0;
            for (double sample : samples) {
                sum += sample;
            }
            return sum / samples.length;
        }
    }

    private static OpcUaAnnotatedNodeManagers managers;
    private static Filler filler;
    private static OpcUaServer server;
    private static OpcUaClient client;
    private static int ns;

    @BeforeAll
    static void start() throws Exception {
        // the bean signals through an event publisher, as in an application context
        filler = new Filler(event -> managers.valueChanged((UaValueChangedEvent) event));
        managers = OpcUaAnnotatedNodeManagers.of(Map.of("filler", filler));
        OpcUaServer.Builder builder = OpcUaServer.builder()
                .applicationUri("urn:test:annotations:server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .requests(2, 8, 100);
        managers.registerWith(builder);
        server = builder.build();
        server.start();
        managers.connect(server.dataChanges());
        ns = server.namespaces().indexOf(NS);
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

    @Test
    void milo_browses_the_bean_object_below_objects_down_to_the_nested_object() throws Exception {
        assertThat(browse(Identifiers.ObjectsFolder)).extracting(r -> r.getBrowseName().getName()).contains("Filler");
        List<ReferenceDescription> filler = browse(node("Filler"));
        assertThat(filler).extracting(r -> r.getBrowseName().getName()).containsExactly(
                "Speed", "Bottles", "Recipes", "Broken", "Limit", "State", "Average", "Fill", "Start", "Motor");
        assertThat(filler).filteredOn(r -> r.getBrowseName().getName().equals("Fill"))
                .extracting(ReferenceDescription::getNodeClass).containsExactly(NodeClass.Method);
        assertThat(browse(node("Filler.Motor"))).extracting(r -> r.getBrowseName().getName())
                .containsExactly("Temperature");
        assertThat(browse(node("Filler.Fill"))).extracting(r -> r.getBrowseName().getName())
                .containsExactly("InputArguments", "OutputArguments");
    }

    @Test
    void milo_reads_the_bean_values_with_their_inferred_data_types() throws Exception {
        assertThat(read("Filler.Speed")).isEqualTo(filler.speed);
        assertThat(read("Filler.Recipes")).isEqualTo(new String[] {"cola", "water"});
        assertThat(read("Filler.Motor.Temperature")).isEqualTo(filler.motor.temperature);
        assertThat(read("Filler.State")).isIn(0, 1);
        assertThat(read("Filler.Bottles")).isInstanceOf(Long.class);
        DataValue[] attributes = client.read(0, TimestampsToReturn.Neither, List.of(
                attribute("Filler.Bottles", AttributeId.DataType), attribute("Filler.Recipes", AttributeId.ValueRank),
                attribute("Filler", AttributeId.Description))).getResults();
        assertThat(attributes[0].getValue().getValue()).isEqualTo(Identifiers.Int64);
        assertThat(attributes[1].getValue().getValue()).isEqualTo(1);
        assertThat(((LocalizedText) attributes[2].getValue().getValue()).getText()).isEqualTo("bottle filler");
    }

    @Test
    void milo_writes_through_the_setter_and_is_refused_a_read_only_variable() throws Exception {
        assertThat(write("Filler.Limit", new Variant(5.0)).isGood()).isTrue();
        assertThat(filler.getLimit()).isEqualTo(5.0);
        assertThat(read("Filler.Limit")).isEqualTo(5.0);
        assertThat(write("Filler.Bottles", new Variant(1L)).getValue()).isEqualTo(StatusCodes.Bad_NotWritable);
        assertThat(write("Filler.Limit", new Variant(-1.0)).getValue()).isEqualTo(StatusCodes.Bad_OutOfRange);
        assertThat(write("Filler.Limit", new Variant("high")).getValue()).isEqualTo(StatusCodes.Bad_TypeMismatch);
        assertThat(write("Filler.Broken", new Variant(1)).getValue()).isEqualTo(StatusCodes.Bad_InternalError);
        assertThat(filler.getLimit()).isEqualTo(5.0);
    }

    @Test
    void milo_calls_methods_and_gets_a_records_components_as_outputs() throws Exception {
        long before = filler.bottles;
        CallMethodResult fill = call("Filler.Fill", new Variant(5), new Variant("B1"));
        assertThat(fill.getStatusCode().isGood()).isTrue();
        assertThat(fill.getOutputArguments()).extracting(Variant::getValue).containsExactly(before + 5, "B1: 5");
        CallMethodResult average = call("Filler.Average", new Variant(new double[] {1, 2, 6}));
        assertThat(average.getOutputArguments()).extracting(Variant::getValue).containsExactly(3.0);
    }

    @Test
    void milo_gets_the_part_4_status_of_a_wrong_call() throws Exception {
        assertThat(call("Filler.Fill", new Variant(5)).getStatusCode().getValue())
                .isEqualTo(StatusCodes.Bad_ArgumentsMissing);
        assertThat(call("Filler.Fill", new Variant(5), new Variant("B"), new Variant(1)).getStatusCode().getValue())
                .isEqualTo(StatusCodes.Bad_TooManyArguments);
        CallMethodResult mismatch = call("Filler.Fill", new Variant("five"), new Variant("B"));
        assertThat(mismatch.getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_InvalidArgument);
        assertThat(mismatch.getInputArgumentResults()).extracting(StatusCode::getValue)
                .containsExactly(StatusCodes.Bad_TypeMismatch, StatusCode.GOOD.getValue());
        call("Filler.Start");
        assertThat(call("Filler.Start").getStatusCode().getValue()).as("IllegalStateException")
                .isEqualTo(StatusCodes.Bad_InvalidState);
        assertThat(read("Filler.State")).isEqualTo(MachineState.RUNNING.ordinal());
    }

    @Test
    void a_subscription_without_sampling_sees_each_signalled_change_and_each_write() throws Exception {
        List<Object> values = new CopyOnWriteArrayList<>();
        OpcUaSubscription subscription = new OpcUaSubscription(client, 100.0);
        subscription.create();
        try {
            OpcUaMonitoredItem item = OpcUaMonitoredItem.newDataItem(node("Filler.Speed"));
            item.setSamplingInterval(0.0);
            item.setQueueSize(uint(10));
            item.setDataValueListener((i, value) -> values.add(value.getValue().getValue()));
            subscription.addMonitoredItem(item);
            subscription.synchronizeMonitoredItems();
            assertThat(item.getRevisedSamplingInterval()).as("fed by signals, not sampled").contains(0.0);

            filler.changeSpeed(7.5);
            awaitValue(values, 7.5);
            assertThat(write("Filler.Speed", new Variant(8.5)).isGood()).isTrue();
            awaitValue(values, 8.5);
            assertThat(filler.speed).isEqualTo(8.5);
        } finally {
            subscription.delete();
        }
    }

    @Test
    void a_sampled_subscription_sees_a_change_the_bean_does_not_signal() throws Exception {
        List<Object> values = new CopyOnWriteArrayList<>();
        OpcUaSubscription subscription = new OpcUaSubscription(client, 100.0);
        subscription.create();
        try {
            OpcUaMonitoredItem item = OpcUaMonitoredItem.newDataItem(node("Filler.Motor.Temperature"));
            item.setSamplingInterval(50.0);
            item.setDataValueListener((i, value) -> values.add(value.getValue().getValue()));
            subscription.addMonitoredItem(item);
            subscription.synchronizeMonitoredItems();
            assertThat(item.getRevisedSamplingInterval()).hasValueSatisfying(v -> assertThat(v).isPositive());

            filler.motor.temperature = 55.5;
            awaitValue(values, 55.5);
        } finally {
            subscription.delete();
        }
    }

    /** Waits up to 10 s for {@code expected} among the values the subscription delivered. */
    private static void awaitValue(List<Object> values, Object expected) {
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                .untilAsserted(() -> assertThat(values).contains(expected));
    }

    private static NodeId node(String path) {
        return new NodeId(ns, path);
    }

    private static ReadValueId attribute(String path, AttributeId attribute) {
        return new ReadValueId(node(path), attribute.uid(), null, QualifiedName.NULL_VALUE);
    }

    private static Object read(String path) throws Exception {
        DataValue value = client.readValue(0, TimestampsToReturn.Both, node(path));
        assertThat(value.getStatusCode().isGood()).as("read of %s: %s", path, value.getStatusCode()).isTrue();
        return value.getValue().getValue();
    }

    private static StatusCode write(String path, Variant value) throws Exception {
        return client.writeValues(List.of(node(path)), List.of(new DataValue(value))).get(0);
    }

    private static CallMethodResult call(String method, Variant... inputs) throws Exception {
        return client.call(List.of(new CallMethodRequest(node("Filler"), node(method), inputs))).getResults()[0];
    }

    private static List<ReferenceDescription> browse(NodeId node) throws Exception {
        BrowseResult result = client.browse(new BrowseDescription(node, BrowseDirection.Forward,
                Identifiers.HierarchicalReferences, true, uint(0), uint(BrowseResultMask.All.getValue())));
        assertThat(result.getStatusCode().isGood()).isTrue();
        return result.getReferences() == null ? List.of() : List.of(result.getReferences());
    }
}
