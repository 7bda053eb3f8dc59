package dev.opcua.stack.server.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.server.transport.uasc.TransportRejection;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.BrowseDirection;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.BrowseDescription;
import dev.opcua.stack.core.types.structured.BrowseNextRequest;
import dev.opcua.stack.core.types.structured.BrowseNextResponse;
import dev.opcua.stack.core.types.structured.BrowsePath;
import dev.opcua.stack.core.types.structured.BrowsePathResult;
import dev.opcua.stack.core.types.structured.BrowseRequest;
import dev.opcua.stack.core.types.structured.BrowseResponse;
import dev.opcua.stack.core.types.structured.BrowseResult;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.RelativePath;
import dev.opcua.stack.core.types.structured.RelativePathElement;
import dev.opcua.stack.core.types.structured.TranslateBrowsePathsToNodeIdsRequest;
import dev.opcua.stack.core.types.structured.TranslateBrowsePathsToNodeIdsResponse;
import dev.opcua.stack.core.types.structured.ViewDescription;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.nodes.InMemoryNodeManagerBuilder;
import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.testing.TestSessions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * View and attribute services pushed past their bounds: continuation-point hoarding
 * (BadNoContinuationPoints for the hoarder only, Part 4, 5.8.2 and 7.9), a Read of a huge array and a
 * Browse of a huge folder answered BadResponseTooLarge over the client's MaxMessageSize with the
 * channel kept (Part 6, 7.1.2.3), and a deep TranslateBrowsePaths answered BadQueryTooComplex (Part 4,
 * 5.9.4.4). Each counted; the well-behaved client reads after each.
 */
class BrowseAndReadLimitsIT {

    private static final int CONTINUATION_POINTS = 2;
    private static final int MAX_PATH_ELEMENTS = 16;
    /** The hostile client accepts messages of 128 KiB; the huge array and folder exceed that. */
    private static final TransportQuotas SMALL_CLIENT = TransportQuotas.builder().maxMessageSize(128 * 1024).build();

    private static HostileServer server;
    private static InMemoryNodeManager plant;

    @BeforeAll
    static void start() throws Exception {
        LeakWatch.install();
        InMemoryNodeManagerBuilder nodes = InMemoryNodeManager.builder("urn:test:hostile")
                .variable("Huge", BuiltinType.Double, v -> v.valueRank(1)
                        .value(Variant.ofArray(BuiltinType.Double, new double[20_000])))
                .folder("Wide");
        for (int i = 0; i < 3_000; i++) {
            nodes.variable("Wide.V" + i, BuiltinType.Int32, v -> v.value(Variant.of(0)));
        }
        plant = nodes.build();
        server = HostileServer.start(b -> b.nodeManager(plant).browseLimits(0, CONTINUATION_POINTS)
                .maxBrowsePathElements(MAX_PATH_ELEMENTS)).withGoodClient();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        LeakWatch.assertNoLeaks();
    }

    @AfterEach
    void goodClientServed() throws Exception {
        server.assertGoodClientServed();
    }

    @Test
    void a_session_hoarding_continuation_points_is_refused_alone_and_others_still_get_theirs() throws Exception {
        long before = server.server().statistics().continuationPointsRefused();
        UaTcpClientChannel hoarder = server.connect();
        UaTcpClientChannel other = server.connect();
        try {
            NodeId hoarding = TestSessions.open(hoarder, server.endpointUrl());
            NodeId polite = TestSessions.open(other, server.endpointUrl());
            ByteString kept = null;
            for (int i = 0; i < CONTINUATION_POINTS; i++) {
                BrowseResult result = browseOneAtATime(hoarder, hoarding);
                assertThat(result.statusCode().isGood()).isTrue();
                kept = result.continuationPoint();
                assertThat(kept.isNull()).isFalse();
            }

            BrowseResult refused = browseOneAtATime(hoarder, hoarding);
            BrowseResult othersFirst = browseOneAtATime(other, polite);

            assertThat(refused.statusCode().value()).isEqualTo(StatusCodes.BadNoContinuationPoints);
            assertThat(othersFirst.statusCode().isGood()).as("another session's Browse is not starved").isTrue();
            assertThat(othersFirst.continuationPoint().isNull()).isFalse();
            assertThat(server.server().statistics().continuationPointsRefused()).isEqualTo(before + 1);
            BrowseNextResponse stolen = other.request(new BrowseNextRequest(TestSessions.header(polite), false,
                    new ByteString[] {kept}), BrowseNextResponse.class).get(20, TimeUnit.SECONDS);
            assertThat(stolen.results()[0].statusCode().value())
                    .as("a session cannot use another session's continuation point")
                    .isEqualTo(StatusCodes.BadContinuationPointInvalid);
        } finally {
            hoarder.close().get(10, TimeUnit.SECONDS);
            other.close().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void a_read_of_a_huge_array_is_bad_response_too_large_and_the_channel_stays_up() throws Exception {
        long before = server.rejected(TransportRejection.RESPONSE_TOO_LARGE);
        UaTcpClientChannel client = server.connect(SMALL_CLIENT);
        try {
            NodeId session = TestSessions.open(client, server.endpointUrl());
            CompletableFuture<ReadResponse> huge = client.request(new ReadRequest(TestSessions.header(session), 0,
                    TimestampsToReturn.Neither, new ReadValueId[] {new ReadValueId(plant.nodeId("Huge"),
                            AttributeIds.Value, null, QualifiedName.NULL)}), ReadResponse.class);
            huge.handle((r, e) -> null).get(20, TimeUnit.SECONDS);

            assertThat(ServiceCalls.serviceResult(huge)).isEqualTo(StatusCodes.BadResponseTooLarge);
            HostileServer.assertReadSucceeds(client, session);
            assertThat(server.rejected(TransportRejection.RESPONSE_TOO_LARGE)).isEqualTo(before + 1);
        } finally {
            client.close().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void a_browse_of_a_huge_folder_is_bad_response_too_large_and_the_channel_stays_up() throws Exception {
        long before = server.rejected(TransportRejection.RESPONSE_TOO_LARGE);
        UaTcpClientChannel client = server.connect(SMALL_CLIENT);
        try {
            NodeId session = TestSessions.open(client, server.endpointUrl());
            CompletableFuture<BrowseResponse> huge = client.request(new BrowseRequest(TestSessions.header(session),
                    new ViewDescription(NodeId.NULL, DateTime.MIN_VALUE, 0), 0, new BrowseDescription[] {
                        new BrowseDescription(plant.nodeId("Wide"), BrowseDirection.Forward,
                                NodeId.ns0(NodeIds.HierarchicalReferences), true, 0, 0x3F)}), BrowseResponse.class);
            huge.handle((r, e) -> null).get(20, TimeUnit.SECONDS);

            assertThat(ServiceCalls.serviceResult(huge)).isEqualTo(StatusCodes.BadResponseTooLarge);
            HostileServer.assertReadSucceeds(client, session);
            assertThat(server.rejected(TransportRejection.RESPONSE_TOO_LARGE)).isEqualTo(before + 1);
        } finally {
            client.close().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void a_translate_browse_paths_deeper_than_the_bound_is_bad_query_too_complex() throws Exception {
        long before = server.server().statistics().browsePathsRefused();
        UaTcpClientChannel client = server.connect();
        try {
            NodeId session = TestSessions.open(client, server.endpointUrl());
            // Objects and back up to Root, again and again: every element matches, so it would be walked.
            RelativePathElement down = new RelativePathElement(NodeId.ns0(NodeIds.Organizes), false, false,
                    QualifiedName.of(0, "Objects"));
            RelativePathElement up = new RelativePathElement(NodeId.ns0(NodeIds.Organizes), true, false,
                    QualifiedName.of(0, "Root"));
            RelativePathElement[] deep = new RelativePathElement[10_000];
            for (int i = 0; i < deep.length; i++) {
                deep[i] = i % 2 == 0 ? down : up;
            }
            RelativePathElement[] allowed = java.util.Arrays.copyOf(deep, MAX_PATH_ELEMENTS);
            NodeId root = NodeId.ns0(NodeIds.RootFolder);

            BrowsePathResult[] results = client.request(new TranslateBrowsePathsToNodeIdsRequest(
                    TestSessions.header(session), new BrowsePath[] {
                        new BrowsePath(root, new RelativePath(deep)),
                        new BrowsePath(root, new RelativePath(allowed))}),
                    TranslateBrowsePathsToNodeIdsResponse.class).get(20, TimeUnit.SECONDS).results();

            assertThat(results[0].statusCode().value()).isEqualTo(StatusCodes.BadQueryTooComplex);
            assertThat(results[1].statusCode().isGood()).as("a path within the bound is walked").isTrue();
            assertThat(results[1].targets()[0].targetId().nodeId()).isEqualTo(root);
            assertThat(server.server().statistics().browsePathsRefused()).isEqualTo(before + 1);
        } finally {
            client.close().get(10, TimeUnit.SECONDS);
        }
    }

    /** Browses the Server object one reference per result, leaving a continuation point. */
    private static BrowseResult browseOneAtATime(UaTcpClientChannel client, NodeId session) throws Exception {
        return client.request(new BrowseRequest(TestSessions.header(session),
                new ViewDescription(NodeId.NULL, DateTime.MIN_VALUE, 0), 1, new BrowseDescription[] {
                    new BrowseDescription(NodeId.ns0(NodeIds.Server), BrowseDirection.Forward,
                            NodeId.ns0(NodeIds.HierarchicalReferences), true, 0, 0x3F)}),
                BrowseResponse.class).get(20, TimeUnit.SECONDS).results()[0];
    }
}
