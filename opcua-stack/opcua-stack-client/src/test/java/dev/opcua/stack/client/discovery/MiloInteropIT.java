package dev.opcua.stack.client.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.RequestHeaders;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.ApplicationType;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsResponse;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Our client against an Eclipse Milo 1.1.2 server over a real socket: Hello/Acknowledge,
 * OpenSecureChannel, the Discovery services, a MSG round trip refused for want of a session, token
 * renewal, and CloseSecureChannel.
 */
class MiloInteropIT {

    private static final String UA_TCP_PROFILE = "http://opcfoundation.org/UA-Profile/Transport/uatcp-uasc-uabinary";

    private static MiloTestServer milo;
    private static ClientResources resources;
    private static final TransportQuotas QUOTAS = TransportQuotas.builder()
            .operationTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    static void startMilo() throws Exception {
        milo = MiloTestServer.start();
        resources = ClientResources.builder().ioThreads(1).build();
    }

    @AfterAll
    static void stopMilo() throws Exception {
        try {
            if (milo != null) {
                milo.close();
            }
        } finally {
            if (resources != null) {
                resources.close();
            }
        }
    }

    @Test
    void get_endpoints_returns_milos_endpoint_with_security_policy_none() throws Exception {
        EndpointDescription[] endpoints = DiscoveryClient.getEndpoints(milo.endpointUrl(), QUOTAS, resources)
                .get(10, TimeUnit.SECONDS);

        assertThat(endpoints).isNotEmpty();
        EndpointDescription none = endpoints[0];
        assertThat(none.endpointUrl()).isEqualTo(milo.endpointUrl());
        assertThat(none.securityPolicyUri()).isEqualTo(SecurityPolicy.None.uri());
        assertThat(none.securityMode()).isEqualTo(MessageSecurityMode.None);
        assertThat(none.transportProfileUri()).isEqualTo(UA_TCP_PROFILE);
        assertThat(none.server().applicationUri()).isEqualTo(MiloTestServer.APPLICATION_URI);
        assertThat(none.server().productUri()).isEqualTo(MiloTestServer.PRODUCT_URI);
        assertThat(none.userIdentityTokens()).isNotEmpty();
    }

    @Test
    void find_servers_returns_milos_own_application() throws Exception {
        ApplicationDescription[] servers = DiscoveryClient.findServers(milo.endpointUrl(), QUOTAS, resources)
                .get(10, TimeUnit.SECONDS);

        assertThat(servers).extracting(ApplicationDescription::applicationUri)
                .containsExactly(MiloTestServer.APPLICATION_URI);
        assertThat(servers[0].applicationType()).isEqualTo(ApplicationType.Server);
        assertThat(servers[0].discoveryUrls()).contains(milo.endpointUrl());
    }

    @Test
    void a_read_without_session_is_refused_with_bad_session_id_invalid_and_the_channel_stays_open() throws Exception {
        UaTcpClientChannel channel = UaTcpClientChannel.connect(milo.endpointUrl(), QUOTAS, resources)
                .get(10, TimeUnit.SECONDS);
        try {
            ReadRequest read = new ReadRequest(RequestHeaders.create(5000), 0, TimestampsToReturn.Both,
                    new ReadValueId[] {new ReadValueId(NodeId.ns0(NodeIds.Server_ServerStatus_CurrentTime),
                            AttributeIds.Value, null, QualifiedName.NULL)});
            CompletableFuture<ReadResponse> response = channel.request(read, ReadResponse.class);

            assertThatThrownBy(() -> response.get(10, TimeUnit.SECONDS))
                    .cause()
                    .isInstanceOf(UaException.class)
                    .satisfies(e -> assertThat(((UaException) e).statusCode().value())
                            .isEqualTo(StatusCodes.BadSessionIdInvalid));
            assertThat(channel.isOpen()).isTrue();
            assertThat(channel.request(getEndpoints(), GetEndpointsResponse.class).get(10, TimeUnit.SECONDS)
                    .endpoints()).isNotEmpty();
        } finally {
            channel.close().get(10, TimeUnit.SECONDS);
        }
        assertThat(channel.isOpen()).isFalse();
        assertThat(channel.nettyChannel().isOpen()).isFalse();
    }

    @Test
    void one_channel_carries_many_concurrent_requests() throws Exception {
        UaTcpClientChannel channel = UaTcpClientChannel.connect(milo.endpointUrl(), QUOTAS, resources)
                .get(10, TimeUnit.SECONDS);
        try {
            List<CompletableFuture<GetEndpointsResponse>> responses = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                responses.add(channel.request(getEndpoints(), GetEndpointsResponse.class));
            }
            CompletableFuture.allOf(responses.toArray(new CompletableFuture<?>[0])).get(10, TimeUnit.SECONDS);
            assertThat(responses).allSatisfy(r -> assertThat(r.join().endpoints()).isNotEmpty());
        } finally {
            channel.close().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void renews_the_token_with_milo_and_keeps_working() throws Exception {
        // Milo revises the lifetime up to its configured minimum; the client renews at 75 % of that.
        TransportQuotas shortTokens = QUOTAS.toBuilder().securityTokenLifetime(Duration.ofMillis(600)).build();
        UaTcpClientChannel channel = UaTcpClientChannel.connect(milo.endpointUrl(), shortTokens, resources)
                .get(10, TimeUnit.SECONDS);
        try {
            long firstToken = channel.tokenId();
            await("the token renewed").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                    .until(() -> channel.tokenId() != firstToken);
            assertThat(channel.request(getEndpoints(), GetEndpointsResponse.class).get(10, TimeUnit.SECONDS)
                    .endpoints()).isNotEmpty();
        } finally {
            channel.close().get(10, TimeUnit.SECONDS);
        }
    }

    /** A measurement, not a check: run with -Dopcua.interop.measure=true (and leak detection off for real numbers). */
    @Test
    @EnabledIfSystemProperty(named = "opcua.interop.measure", matches = "true")
    void measures_the_round_trip_of_get_endpoints() throws Exception {
        int rounds = 50;
        for (int i = 0; i < 10; i++) { // warm-up
            DiscoveryClient.getEndpoints(milo.endpointUrl(), QUOTAS, resources).get(10, TimeUnit.SECONDS);
        }
        long start = System.nanoTime();
        for (int i = 0; i < rounds; i++) {
            DiscoveryClient.getEndpoints(milo.endpointUrl(), QUOTAS, resources).get(10, TimeUnit.SECONDS);
        }
        long connectCallClose = (System.nanoTime() - start) / rounds;

        UaTcpClientChannel channel = UaTcpClientChannel.connect(milo.endpointUrl(), QUOTAS, resources)
                .get(10, TimeUnit.SECONDS);
        long perRequest;
        try {
            for (int i = 0; i < 50; i++) {
                channel.request(getEndpoints(), GetEndpointsResponse.class).get(10, TimeUnit.SECONDS);
            }
            start = System.nanoTime();
            for (int i = 0; i < rounds * 4; i++) {
                channel.request(getEndpoints(), GetEndpointsResponse.class).get(10, TimeUnit.SECONDS);
            }
            perRequest = (System.nanoTime() - start) / (rounds * 4);
        } finally {
            channel.close().get(10, TimeUnit.SECONDS);
        }
        System.out.printf("GetEndpoints against Milo: connect+call+close %.2f ms, call on an open channel %.3f ms%n",
                connectCallClose / 1e6, perRequest / 1e6);
        assertThat(perRequest).isPositive();
    }

    private GetEndpointsRequest getEndpoints() {
        return new GetEndpointsRequest(RequestHeaders.create(5000), milo.endpointUrl(), new String[0], new String[0]);
    }

}
