package dev.opcua.spring.boot.observation;

import static dev.opcua.spring.boot.actuate.testing.TestServers.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.opcua.spring.boot.actuate.testing.TestClient;
import dev.opcua.spring.boot.actuate.testing.TestServers;
import dev.opcua.stack.client.transport.RequestHeaders;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.ObservationContextAssert;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Every service call of a real server becomes an Observation; none when the registry is a no-op. */
class ObservationServiceObserverTest {

    private final AtomicReference<Observation> currentDuringRead = new AtomicReference<>();
    private final InMemoryNodeManager plant = InMemoryNodeManager.builder(TestServers.NAMESPACE)
            .variable("Speed", BuiltinType.Double, v -> v.valueSupplier(() -> Variant.ofDouble(1.5)))
            .build();
    private OpcUaServer server;

    @AfterEach
    void closeServer() {
        if (server != null) {
            server.close();
        }
    }

    private OpcUaServer start(ObservationRegistry registry) {
        server = TestServers.started(plant, b -> b.serviceObserver(new ObservationServiceObserver(registry)));
        return server;
    }

    private ReadValueId speed() {
        return new ReadValueId(plant.nodeId("Speed"), AttributeIds.Value, null, QualifiedName.NULL);
    }

    /** A Read without a session: the server answers BadSessionIdInvalid. */
    private Throwable readWithoutSession(TestClient client) {
        RequestHeader noSession = new RequestHeader(NodeId.NULL, DateTime.now(), RequestHeaders.nextHandle(), 0,
                null, 10_000, ExtensionObject.NULL);
        return catchThrowable(() -> client.channel().request(new ReadRequest(noSession, 0, TimestampsToReturn.Both,
                new ReadValueId[] {speed()}), ReadResponse.class).join());
    }

    private static List<Observation.Context> reads(List<Observation.Context> contexts) {
        return contexts.stream()
                .filter(c -> c instanceof OpcUaServiceObservationContext o && o.getService().equals("Read"))
                .toList();
    }

    @Test
    void a_good_Read_is_an_observation_named_opcua_server_requests_with_service_status_outcome_and_channel()
            throws Exception {
        TestObservationRegistry registry = TestObservationRegistry.create();
        start(registry);
        long channelId;
        try (TestClient client = TestClient.connect(server)) {
            channelId = client.channel().secureChannelId();
            client.read(plant.nodeId("Speed"));
        }

        TestObservationRegistryAssert.assertThat(registry)
                .hasObservationWithNameEqualTo("opcua.server.requests").that()
                .hasBeenStarted()
                .hasBeenStopped();
        TestObservationRegistryAssert.assertThat(registry).hasHandledContextsThatSatisfy(contexts -> {
            assertThat(contexts).extracting(c -> ((OpcUaServiceObservationContext) c).getService())
                    .containsSubsequence("CreateSession", "ActivateSession", "Read", "CloseSession");
            assertThat(reads(contexts)).singleElement().satisfies(read -> ObservationContextAssert.assertThat(read)
                    .hasNameEqualTo("opcua.server.requests")
                    .hasContextualNameEqualTo("opcua Read")
                    .hasLowCardinalityKeyValue("service", "Read")
                    .hasLowCardinalityKeyValue("status", "Good")
                    .hasLowCardinalityKeyValue("outcome", "SUCCESS")
                    .hasHighCardinalityKeyValue("secure.channel.id", Long.toString(channelId))
                    .doesNotHaveError());
        });
    }

    @Test
    void a_Read_refused_with_a_ServiceFault_is_observed_with_its_status_name_outcome_FAILURE_and_the_error()
            throws Exception {
        TestObservationRegistry registry = TestObservationRegistry.create();
        start(registry);
        try (TestClient client = TestClient.connect(server)) {
            Throwable refused = readWithoutSession(client);
            assertThat(refused).isInstanceOf(CompletionException.class).hasCauseInstanceOf(UaException.class);
        }

        TestObservationRegistryAssert.assertThat(registry).hasHandledContextsThatSatisfy(contexts ->
                assertThat(reads(contexts)).singleElement().satisfies(read -> ObservationContextAssert.assertThat(read)
                        .hasLowCardinalityKeyValue("service", "Read")
                        .hasLowCardinalityKeyValue("status", "BadSessionIdInvalid")
                        .hasLowCardinalityKeyValue("outcome", "FAILURE")
                        .assertThatError().isInstanceOf(UaException.class)));
    }

    @Test
    void with_a_tracer_each_call_is_a_span_and_a_read_inside_it_sees_that_span_as_current() throws Exception {
        SimpleTracer tracer = new SimpleTracer();
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
        AtomicReference<Span> spanDuringRead = new AtomicReference<>();
        InMemoryNodeManager traced = InMemoryNodeManager.builder(TestServers.NAMESPACE)
                .variable("Speed", BuiltinType.Double, v -> v.valueSupplier(() -> {
                    spanDuringRead.set(tracer.currentSpan());
                    return Variant.ofDouble(1.5);
                }))
                .build();
        server = TestServers.started(traced, b -> b.serviceObserver(new ObservationServiceObserver(registry)));
        try (TestClient client = TestClient.connect(server)) {
            client.read(traced.nodeId("Speed"));
        }
        waitUntil(() -> tracer.getSpans().stream().anyMatch(span -> span.getName().equals("opcua CloseSession")));

        SimpleSpan read = tracer.getSpans().stream().filter(span -> span.getName().equals("opcua Read"))
                .findFirst().orElseThrow();
        assertThat(read.getTags()).containsEntry("service", "Read").containsEntry("status", "Good");
        assertThat(read.getEndTimestamp()).isAfterOrEqualTo(read.getStartTimestamp());
        assertThat(spanDuringRead.get()).as("the node manager ran inside the Read span").isNotNull();
        assertThat(spanDuringRead.get().context().spanId()).isEqualTo(read.context().spanId());
        assertThat(tracer.getSpans()).extracting(SimpleSpan::getName)
                .contains("opcua CreateSession", "opcua ActivateSession", "opcua Read", "opcua CloseSession");
    }

    @Test
    void the_observation_is_current_on_the_worker_while_the_node_manager_reads() throws Exception {
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(context -> true);
        InMemoryNodeManager watching = InMemoryNodeManager.builder(TestServers.NAMESPACE)
                .variable("Speed", BuiltinType.Double, v -> v.valueSupplier(() -> {
                    currentDuringRead.set(registry.getCurrentObservation());
                    return Variant.ofDouble(1.5);
                }))
                .build();
        server = TestServers.started(watching, b -> b.serviceObserver(new ObservationServiceObserver(registry)));
        try (TestClient client = TestClient.connect(server)) {
            client.read(watching.nodeId("Speed"));
        }

        assertThat(currentDuringRead.get()).isNotNull();
        assertThat(currentDuringRead.get().getContext()).isInstanceOfSatisfying(OpcUaServiceObservationContext.class,
                context -> assertThat(context.getService()).isEqualTo("Read"));
        assertThat(registry.getCurrentObservation()).as("the scope was closed").isNull();
    }

    @Test
    void with_the_meter_handler_each_call_becomes_the_opcua_server_requests_timer_tagged_by_service_and_status()
            throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
        start(registry);
        try (TestClient client = TestClient.connect(server)) {
            client.read(plant.nodeId("Speed"));
            client.read(plant.nodeId("Speed"));
            readWithoutSession(client);
        }
        waitUntil(() -> meters.find("opcua.server.requests").tag("service", "CloseSession").timer() != null);

        Timer goodReads = meters.get("opcua.server.requests")
                .tags("service", "Read", "status", "Good", "outcome", "SUCCESS").timer();
        assertThat(goodReads.count()).isEqualTo(2);
        assertThat(goodReads.totalTime(TimeUnit.NANOSECONDS)).isPositive();
        Timer refusedReads = meters.get("opcua.server.requests")
                .tags("service", "Read", "status", "BadSessionIdInvalid", "outcome", "FAILURE").timer();
        assertThat(refusedReads.count()).isEqualTo(1);
        assertThat(refusedReads.getId().getTag("error")).isEqualTo("UaException");
        LongTaskTimer active = meters.get("opcua.server.requests.active").tag("service", "Read").longTaskTimer();
        assertThat(active.getId().getTag("status")).as("unknown while the call runs").isNull();
        assertThat(active.activeTasks()).isZero();
    }

    @Test
    void a_noop_registry_or_one_without_handlers_leaves_every_call_unobserved() {
        assertThat(new ObservationServiceObserver(ObservationRegistry.NOOP).started("Read", 1)).isNull();
        assertThat(new ObservationServiceObserver(ObservationRegistry.create()).started("Read", 1)).isNull();
    }

    @Test
    void an_observation_switched_off_by_a_predicate_leaves_the_call_unobserved() {
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(context -> true);
        registry.observationConfig().observationPredicate((name, context) -> !name.equals("opcua.server.requests"));

        assertThat(new ObservationServiceObserver(registry).started("Read", 1)).isNull();
    }

    @Test
    void a_replacement_convention_names_and_tags_the_observation() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        OpcUaServiceObservationConvention convention = new DefaultOpcUaServiceObservationConvention() {
            @Override
            public String getName() {
                return "plant.opcua.calls";
            }
        };

        new ObservationServiceObserver(registry, convention).started("Browse", 7).finished(0, null);

        TestObservationRegistryAssert.assertThat(registry).hasSingleObservationThat()
                .hasNameEqualTo("plant.opcua.calls")
                .hasContextualNameEqualTo("opcua Browse")
                .hasLowCardinalityKeyValue("service", "Browse")
                .hasHighCardinalityKeyValue("secure.channel.id", "7");
    }

    @Test
    void status_names_come_from_the_specification_and_unknown_codes_are_hex() {
        DefaultOpcUaServiceObservationConvention convention = new DefaultOpcUaServiceObservationConvention();
        OpcUaServiceObservationContext uncertain = new OpcUaServiceObservationContext("Write", 1);
        uncertain.setStatusCode(0x40000000L);
        OpcUaServiceObservationContext unknown = new OpcUaServiceObservationContext("Write", 1);
        unknown.setStatusCode(0x81FF0000L);
        OpcUaServiceObservationContext running = new OpcUaServiceObservationContext("Write", 1);

        assertThat(convention.getLowCardinalityKeyValues(uncertain).stream().map(kv -> kv.getKey() + "=" + kv.getValue()))
                .containsExactly("outcome=FAILURE", "service=Write", "status=Uncertain");
        assertThat(convention.getLowCardinalityKeyValues(unknown).stream().map(kv -> kv.getKey() + "=" + kv.getValue()))
                .contains("status=0x81FF0000");
        assertThat(convention.getLowCardinalityKeyValues(running).stream().map(kv -> kv.getKey()))
                .containsExactly("service");
    }
}
