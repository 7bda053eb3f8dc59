package dev.opcua.spring.boot.actuate.metrics;

import static dev.opcua.spring.boot.actuate.testing.TestServers.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.actuate.testing.TestClient;
import dev.opcua.spring.boot.actuate.testing.TestServers;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.BrowsePath;
import dev.opcua.stack.core.types.structured.BrowsePathResult;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsRequest;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsResponse;
import dev.opcua.stack.core.types.structured.CreateSubscriptionRequest;
import dev.opcua.stack.core.types.structured.CreateSubscriptionResponse;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateRequest;
import dev.opcua.stack.core.types.structured.MonitoringParameters;
import dev.opcua.stack.core.types.structured.PublishRequest;
import dev.opcua.stack.core.types.structured.PublishResponse;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.RelativePath;
import dev.opcua.stack.core.types.structured.RelativePathElement;
import dev.opcua.stack.core.types.structured.SubscriptionAcknowledgement;
import dev.opcua.stack.core.types.structured.TranslateBrowsePathsToNodeIdsRequest;
import dev.opcua.stack.core.types.structured.TranslateBrowsePathsToNodeIdsResponse;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.redundancy.InMemorySessionStateStore;
import dev.opcua.stack.server.redundancy.RedundancyMode;
import dev.opcua.stack.server.redundancy.RedundancyPartner;
import dev.opcua.stack.server.redundancy.RedundancySettings;
import dev.opcua.stack.server.redundancy.SessionMirrorSettings;
import dev.opcua.stack.server.history.InMemoryHistoryStore;
import dev.opcua.stack.server.services.history.HistorySettings;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.requests.RejectReason;
import dev.opcua.stack.server.requests.RequestPoolSettings;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The server meters read a real server on a free port that our stack's client talks to. */
class OpcUaServerMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final InMemoryNodeManager plant = TestServers.plant();
    private OpcUaServer server;

    @AfterEach
    void closeServer() {
        if (server != null) {
            server.close();
        }
    }

    private double gauge(String name) {
        return registry.get(name).gauge().value();
    }

    private double counter(String name) {
        return registry.get(name).functionCounter().count();
    }

    private double rejected(RejectReason reason) {
        return registry.get("opcua.server.requests.rejected").tag("reason", reason.name().toLowerCase())
                .functionCounter().count();
    }

    @Test
    void a_client_that_opens_a_session_and_reads_shows_in_sessions_channels_bytes_and_queue_meters() throws Exception {
        server = TestServers.started(plant, b -> b.requestPool(new RequestPoolSettings(2, 4, 7, 3,
                Duration.ofSeconds(30), Duration.ofMinutes(1), false, Duration.ofSeconds(1))));
        new OpcUaServerMetrics(server).bindTo(registry);

        try (TestClient client = TestClient.connect(server)) {
            assertThat(client.read(plant.nodeId("Speed")).value().value()).isEqualTo(1.5);

            assertThat(gauge("opcua.server.sessions")).isEqualTo(1);
            assertThat(counter("opcua.server.sessions.opened")).isEqualTo(1);
            assertThat(counter("opcua.server.sessions.closed")).isZero();
            assertThat(counter("opcua.server.sessions.rejected")).isZero();
            assertThat(counter("opcua.server.sessions.timeouts")).isZero();
            assertThat(gauge("opcua.server.secure.channels")).isEqualTo(1);
            assertThat(counter("opcua.server.transport.received")).isGreaterThan(100);
            assertThat(counter("opcua.server.transport.sent")).isGreaterThan(100);
            assertThat(gauge("opcua.server.requests.queue.capacity")).isEqualTo(7);
            assertThat(gauge("opcua.server.requests.queued")).isZero();
            assertThat(gauge("opcua.server.workers.busy")).isBetween(0.0, 4.0);
            for (RejectReason reason : RejectReason.values()) {
                assertThat(rejected(reason)).as(reason.name()).isZero();
            }
            FunctionTimer queueWait = registry.get("opcua.server.requests.queue.wait").functionTimer();
            assertThat(queueWait.count()).as("CreateSession, ActivateSession and Read waited")
                    .isGreaterThanOrEqualTo(3);
            assertThat(queueWait.totalTime(TimeUnit.NANOSECONDS)).isPositive();
            assertThat(counter("opcua.server.requests.inline")).as("the plant's Slow supplier may block").isZero();
        }
        waitUntil(() -> gauge("opcua.server.sessions") == 0 && gauge("opcua.server.secure.channels") == 0);
        assertThat(counter("opcua.server.sessions.closed")).isEqualTo(1);
    }

    @Test
    void a_read_run_on_the_io_thread_counts_as_inline_and_not_in_the_queue_wait() throws Exception {
        InMemoryNodeManager stored = InMemoryNodeManager.builder(TestServers.NAMESPACE)
                .variable("Speed", BuiltinType.Double, v -> v.value(Variant.ofDouble(1.5)))
                .build();
        server = TestServers.started(stored, b -> { });
        new OpcUaServerMetrics(server).bindTo(registry);

        try (TestClient client = TestClient.connect(server)) {
            double waitedBefore = registry.get("opcua.server.requests.queue.wait").functionTimer().count();
            assertThat(client.read(stored.nodeId("Speed")).value().value()).isEqualTo(1.5);

            assertThat(counter("opcua.server.requests.inline")).isGreaterThanOrEqualTo(1);
            assertThat(registry.get("opcua.server.requests.queue.wait").functionTimer().count())
                    .as("the Read did not wait in the queue").isEqualTo(waitedBefore);
        }
    }

    @Test
    void a_subscription_with_a_monitored_item_shows_in_the_subscription_meters() throws Exception {
        server = TestServers.started(plant, b -> { });
        new OpcUaServerMetrics(server).bindTo(registry);

        try (TestClient client = TestClient.connect(server)) {
            CreateSubscriptionResponse subscription = client.session().request(new CreateSubscriptionRequest(
                    client.session().header(), 50, 600, 200, 0, true, (short) 0), CreateSubscriptionResponse.class)
                    .get(10, TimeUnit.SECONDS);
            client.session().request(new CreateMonitoredItemsRequest(client.session().header(),
                    subscription.subscriptionId(), TimestampsToReturn.Both, new MonitoredItemCreateRequest[] {
                        new MonitoredItemCreateRequest(new ReadValueId(plant.nodeId("Speed"), AttributeIds.Value,
                                null, QualifiedName.NULL), MonitoringMode.Reporting,
                                new MonitoringParameters(1, 50, ExtensionObject.NULL, 10, true))}),
                    CreateMonitoredItemsResponse.class).get(10, TimeUnit.SECONDS);
            assertThat(gauge("opcua.server.subscriptions")).isEqualTo(1);
            assertThat(gauge("opcua.server.monitored.items")).isEqualTo(1);

            PublishResponse first = client.session().request(new PublishRequest(client.session().header(),
                    new SubscriptionAcknowledgement[0]), PublishResponse.class).get(10, TimeUnit.SECONDS);
            assertThat(first.notificationMessage().notificationData()).isNotEmpty();
            assertThat(counter("opcua.server.notifications.sent")).isGreaterThanOrEqualTo(1);
            assertThat(counter("opcua.server.notifications.dropped")).isZero();

            // The value does not change again: the next Publish waits in the session for the keep-alive.
            client.session().request(new PublishRequest(client.session().header(),
                    new SubscriptionAcknowledgement[0]), PublishResponse.class);
            waitUntil(() -> gauge("opcua.server.publish.requests.parked") == 1);
        }
        waitUntil(() -> gauge("opcua.server.subscriptions") == 0);
        assertThat(gauge("opcua.server.monitored.items")).isZero();
        assertThat(gauge("opcua.server.publish.requests.parked")).isZero();
    }

    @Test
    void a_flood_on_a_server_with_one_worker_and_two_queue_places_grows_the_too_busy_rejections()
            throws Exception {
        server = TestServers.started(plant, b -> b.requestPool(new RequestPoolSettings(1, 1, 2, 2,
                Duration.ofSeconds(30), Duration.ofMinutes(1), false, Duration.ofSeconds(1))));
        new OpcUaServerMetrics(server).bindTo(registry);

        try (TestClient client = TestClient.connect(server)) {
            List<CompletableFuture<ReadResponse>> flood = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                flood.add(client.session().request(new ReadRequest(client.session().header(), 0,
                        TimestampsToReturn.Both, new ReadValueId[] {new ReadValueId(plant.nodeId("Slow"),
                                AttributeIds.Value, null, QualifiedName.NULL)}), ReadResponse.class));
            }
            CompletableFuture.allOf(flood.toArray(CompletableFuture[]::new)).handle((ok, failure) -> null)
                    .get(20, TimeUnit.SECONDS);
            long refused = flood.stream().filter(CompletableFuture::isCompletedExceptionally).count();

            assertThat(refused).isPositive();
            assertThat(rejected(RejectReason.TOO_BUSY)).isEqualTo(refused);
            assertThat(rejected(RejectReason.TOO_OLD)).isZero();
            assertThat(gauge("opcua.server.requests.queue.capacity")).isEqualTo(2);
        }
    }

    @Test
    void hostile_peers_show_in_the_transport_and_limit_rejection_meters() throws Exception {
        server = TestServers.started(plant, b -> b.transportQuotas(TransportQuotas.builder()
                .helloTimeout(Duration.ofMillis(500)).build()).maxBrowsePathElements(2));
        new OpcUaServerMetrics(server).bindTo(registry);

        try (Socket garbage = new Socket("127.0.0.1", server.port());
                Socket silent = new Socket("127.0.0.1", server.port())) {
            garbage.setSoTimeout(20_000);
            silent.setSoTimeout(20_000);
            garbage.getOutputStream().write("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            garbage.getInputStream().readAllBytes(); // the ERR, then the end of the stream
            silent.getInputStream().readAllBytes(); // nothing sent: ERR BadTimeout after the hello timeout

            assertThat(transportRejected("protocol_error")).isEqualTo(1);
            assertThat(transportRejected("handshake_timeout")).isEqualTo(1);
            assertThat(transportRejected("connection_limit")).isZero();
            assertThat(transportRejected("write_buffer_limit")).as("a series for every TransportRejection").isZero();
        }
        try (TestClient client = TestClient.connect(server)) {
            RelativePathElement down = new RelativePathElement(NodeId.ns0(NodeIds.Organizes), false, false,
                    QualifiedName.of(0, "Objects"));
            BrowsePathResult[] results = client.session().request(new TranslateBrowsePathsToNodeIdsRequest(
                    client.session().header(), new BrowsePath[] {new BrowsePath(NodeId.ns0(NodeIds.RootFolder),
                            new RelativePath(new RelativePathElement[] {down, down, down}))}),
                    TranslateBrowsePathsToNodeIdsResponse.class).get(20, TimeUnit.SECONDS).results();

            assertThat(results[0].statusCode().value()).isEqualTo(StatusCodes.BadQueryTooComplex);
            assertThat(registry.get("opcua.server.limits.rejected").tag("limit", "query_too_complex")
                    .functionCounter().count()).isEqualTo(1);
            waitUntil(() -> gauge("opcua.server.connections") == 1); // the refused sockets are gone, the client's stays
        }
    }

    private double transportRejected(String reason) {
        return registry.get("opcua.server.transport.rejected").tag("reason", reason).functionCounter().count();
    }

    @Test
    void every_meter_has_a_description_and_the_application_uri_tag_and_bytes_are_in_bytes() throws Exception {
        server = TestServers.started(plant, b -> { });
        new OpcUaServerMetrics(server, Tags.of("site", "plant-1")).bindTo(registry);

        assertThat(registry.getMeters()).hasSize(49).allSatisfy(meter -> {
            assertThat(meter.getId().getName()).startsWith("opcua.server.");
            assertThat(meter.getId().getDescription()).isNotBlank();
            assertThat(meter.getId().getTag(OpcUaServerMetrics.APPLICATION_URI_TAG))
                    .isEqualTo("urn:test:actuate:server");
            assertThat(meter.getId().getTag("site")).isEqualTo("plant-1");
        });
        assertThat(registry.get("opcua.server.transport.received").functionCounter().getId().getBaseUnit())
                .isEqualTo("bytes");
        assertThat(registry.get("opcua.server.transport.sent").functionCounter().getId().getBaseUnit())
                .isEqualTo("bytes");
        assertThat(registry.get("opcua.server.requests.rejected").functionCounters())
                .extracting(counter -> counter.getId().getTag("reason"))
                .containsExactlyInAnyOrder("too_busy", "too_old", "timeout", "halted");
        assertThat(registry.get("opcua.server.reverse.connections").functionCounters())
                .as("reverse connect is off: every outcome reads 0")
                .allSatisfy(counter -> assertThat(counter.count()).isZero())
                .extracting(counter -> counter.getId().getTag("outcome"))
                .containsExactlyInAnyOrder("taken", "failed", "closed_unused");
        assertThat(registry.get("opcua.server.reverse.attempts").functionCounter().count()).isZero();
        assertThat(registry.find("opcua.server.requests").timer())
                .as("the request timer comes from the observations, not from this binder").isNull();
        assertThat(registry.get("opcua.server.audit.events").functionCounters())
                .extracting(counter -> counter.getId().getTag("outcome"))
                .containsExactlyInAnyOrder("raised", "dropped");
    }

    @Test
    void values_recorded_into_history_show_in_the_history_meters() throws Exception {
        server = TestServers.started(plant, b -> b.history(new InMemoryHistoryStore(), HistorySettings.DEFAULT));
        OpcUaServerMetrics metrics = new OpcUaServerMetrics(server);
        metrics.bindTo(registry);
        double before = counter("opcua.server.history.values.recorded");
        NodeId speed = plant.nodeId("Speed");
        for (int i = 0; i < 3; i++) {
            DateTime time = DateTime.ofEpochMillis(1_000L * (i + 1));
            server.historyRecorder().record(speed, DataValue.of(Variant.ofDouble(i), StatusCode.GOOD, time, time));
        }
        server.historyRecorder().flush().get(10, TimeUnit.SECONDS);

        assertThat(counter("opcua.server.history.values.recorded") - before).isEqualTo(3);
        assertThat(gauge("opcua.server.history.backlog")).isZero();
        assertThat(counter("opcua.server.history.values.dropped")).isZero();
        assertThat(counter("opcua.server.history.values.refused")).isZero();
    }

    @Test
    void meters_read_zero_before_the_server_starts_and_keep_their_counts_after_it_stops() throws Exception {
        server = TestServers.builder(plant).build();
        OpcUaServerMetrics metrics = new OpcUaServerMetrics(server);
        metrics.bindTo(registry);
        assertThat(registry.getMeters())
                .filteredOn(meter -> !meter.getId().getName().equals("opcua.server.certificate.expiry"))
                .allSatisfy(meter -> assertThat(meter.measure())
                        .allSatisfy(measurement -> assertThat(measurement.getValue()).isZero()));
        assertThat(gauge("opcua.server.certificate.expiry")).as("no certificate before start").isNaN();

        server.start();
        try (TestClient client = TestClient.connect(server)) {
            client.read(plant.nodeId("Speed"));
        }
        double received = counter("opcua.server.transport.received");
        assertThat(received).isPositive();
        server.close();
        assertThat(counter("opcua.server.transport.received")).isEqualTo(received);
        assertThat(counter("opcua.server.sessions.opened")).isEqualTo(1);
    }

    @Test
    void certificate_expiry_is_the_seconds_left_until_the_certificates_not_after() throws Exception {
        Instant expires = Instant.now().plus(Duration.ofDays(40)).truncatedTo(ChronoUnit.SECONDS);
        ApplicationCertificate certificate = CertificateBuilder.forApplication("metrics test server")
                .applicationUri("urn:test:actuate:server")
                .hostNames("127.0.0.1")
                .validityWindow(Instant.now().minus(Duration.ofDays(1)), expires)
                .build();
        server = TestServers.started(plant, b -> b.certificate(certificate));
        new OpcUaServerMetrics(server).bindTo(registry);

        long before = Instant.now().getEpochSecond();
        double left = gauge("opcua.server.certificate.expiry");
        long after = Instant.now().getEpochSecond();

        assertThat(left).isBetween(expires.getEpochSecond() - after - 1.0, expires.getEpochSecond() - before + 1.0);
        assertThat(registry.get("opcua.server.certificate.expiry").gauge().getId().getBaseUnit()).isEqualTo("seconds");
    }

    @Test
    void certificate_expiry_is_NaN_for_a_server_without_a_certificate() throws Exception {
        server = TestServers.started(plant, b -> { });
        new OpcUaServerMetrics(server).bindTo(registry);

        assertThat(gauge("opcua.server.certificate.expiry")).isNaN();
    }

    @Test
    void close_removes_the_meters_from_every_registry_it_was_bound_to() throws Exception {
        server = TestServers.started(plant, b -> { });
        SimpleMeterRegistry other = new SimpleMeterRegistry();
        registry.counter("unrelated").increment();
        OpcUaServerMetrics metrics = new OpcUaServerMetrics(server);
        metrics.bindTo(registry);
        metrics.bindTo(other);

        metrics.close();

        assertThat(registry.getMeters()).extracting(Meter::getId).extracting(Meter.Id::getName)
                .containsExactly("unrelated");
        assertThat(other.getMeters()).isEmpty();
        metrics.close();
    }

    @Test
    void a_hot_and_mirrored_server_counts_the_states_its_mirror_wrote_and_shows_the_store_reachable() throws Exception {
        InMemorySessionStateStore store = new InMemorySessionStateStore();
        server = TestServers.started(plant, b -> b
                .redundancy(RedundancySettings.of(RedundancyMode.HotAndMirrored,
                        new RedundancyPartner("urn:test:actuate:partner", "opc.tcp://127.0.0.1:1")))
                .sessionStateStore(store)
                .sessionMirrorSettings(SessionMirrorSettings.DEFAULT.withInterval(Duration.ofMillis(20))));
        new OpcUaServerMetrics(server).bindTo(registry);

        try (TestClient client = TestClient.connect(server)) {
            client.read(plant.nodeId("Speed"));
            waitUntil(() -> registry.get("opcua.server.redundancy.mirror.states").tag("outcome", "written")
                    .functionCounter().count() >= 1);
        }
        assertThat(gauge("opcua.server.redundancy.store.reachable")).isEqualTo(1);
        assertThat(registry.get("opcua.server.redundancy.mirror.states").tag("outcome", "dropped")
                .functionCounter().count()).isZero();
        assertThat(counter("opcua.server.redundancy.sessions.taken.over")).isZero();
        assertThat(gauge("opcua.server.redundancy.partners.reachable")).as("port 1: nobody there").isZero();
        assertThat(gauge("opcua.server.redundancy.partners.mismatched")).isZero();
    }

    @Test
    void a_server_that_mirrors_nothing_has_no_mirror_meters() {
        server = TestServers.started(plant, b -> { });
        new OpcUaServerMetrics(server).bindTo(registry);

        assertThat(registry.find("opcua.server.redundancy.mirror.states").meters()).isEmpty();
        assertThat(registry.find("opcua.server.redundancy.store.reachable").meters()).isEmpty();
        assertThat(registry.find("opcua.server.redundancy.partners.reachable").meters()).isEmpty();
    }
}
