package dev.opcua.stack.server.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.enumerated.ApplicationType;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.FindServersRequest;
import dev.opcua.stack.core.types.structured.FindServersResponse;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsResponse;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.server.testing.TestChunks;
import java.util.List;
import org.junit.jupiter.api.Test;

/** GetEndpoints (Part 4, 5.4.4) and FindServers (Part 4, 5.4.2) answered from the configuration. */
class DiscoveryServicesTest {

    private static final String URL = "opc.tcp://server.local:4840/line1";

    private final DiscoveryServices discovery = DiscoveryServices.builder()
            .application("urn:acme:line1", "urn:acme:opcua", "Line 1")
            .endpointUrls(List.of(URL))
            .build();

    @Test
    void endpointsDescribeSecurityPolicyNoneWithTheApplicationAndAnonymousAccess() {
        EndpointDescription endpoint = getEndpoints(discovery, URL).endpoints()[0];

        assertThat(endpoint.endpointUrl()).isEqualTo(URL);
        assertThat(endpoint.securityPolicyUri()).isEqualTo(SecurityPolicy.None.uri());
        assertThat(endpoint.securityMode()).isEqualTo(MessageSecurityMode.None);
        assertThat(endpoint.transportProfileUri()).isEqualTo(DiscoveryServices.TRANSPORT_PROFILE_UATCP);
        assertThat(endpoint.userIdentityTokens()).extracting(UserTokenPolicy::tokenType)
                .containsExactly(UserTokenType.Anonymous);
        assertThat(endpoint.server().applicationUri()).isEqualTo("urn:acme:line1");
        assertThat(endpoint.server().applicationType()).isEqualTo(ApplicationType.Server);
        assertThat(endpoint.server().discoveryUrls()).containsExactly(URL);
    }

    @Test
    void theResponseEchoesTheRequestHandle() {
        GetEndpointsRequest request = new GetEndpointsRequest(TestChunks.requestHeader(4711), URL, null, null);

        assertThat(discovery.getEndpoints(request).responseHeader().requestHandle()).isEqualTo(4711);
    }

    @Test
    void urlsCarryTheHostNameTheClientUsed() {
        EndpointDescription endpoint = getEndpoints(discovery, "opc.tcp://10.0.0.7:4840/line1").endpoints()[0];

        assertThat(endpoint.endpointUrl()).isEqualTo("opc.tcp://10.0.0.7:4840/line1");
        assertThat(endpoint.server().discoveryUrls()).containsExactly("opc.tcp://10.0.0.7:4840/line1");
    }

    @Test
    void anIpv6HostKeepsItsBrackets() {
        assertThat(getEndpoints(discovery, "opc.tcp://[::1]:4840/").endpoints()[0].endpointUrl())
                .isEqualTo("opc.tcp://[::1]:4840/line1");
    }

    @Test
    void theConfiguredUrlsAreReturnedWhenTheOptionIsOffOrTheRequestHasNoUsableUrl() {
        DiscoveryServices fixed = DiscoveryServices.builder()
                .application("urn:acme:line1", "urn:acme:opcua", "Line 1")
                .endpointUrls(List.of(URL))
                .useRequestHostName(false)
                .build();

        assertThat(getEndpoints(fixed, "opc.tcp://10.0.0.7:4840/").endpoints()[0].endpointUrl()).isEqualTo(URL);
        assertThat(getEndpoints(discovery, null).endpoints()[0].endpointUrl()).isEqualTo(URL);
        assertThat(getEndpoints(discovery, "not a url").endpoints()[0].endpointUrl()).isEqualTo(URL);
    }

    @Test
    void endpointsAreFilteredByTransportProfile() {
        assertThat(getEndpoints(URL, DiscoveryServices.TRANSPORT_PROFILE_UATCP).endpoints()).hasSize(1);
        assertThat(getEndpoints(URL, DiscoveryServices.TRANSPORT_PROFILE_UATCP + "?x=1").endpoints()).hasSize(1);
        assertThat(getEndpoints(URL, "http://opcfoundation.org/UA-Profile/Transport/https-uabinary").endpoints())
                .isEmpty();
    }

    @Test
    void configuredEndpointsGetTheApplicationDescriptionAsTheirServer() {
        ApplicationDescription other = new ApplicationDescription("urn:other", null, null, ApplicationType.Client,
                null, null, null);
        DiscoveryServices custom = DiscoveryServices.builder()
                .application("urn:acme:line1", "urn:acme:opcua", "Line 1")
                .endpoints(List.of(DiscoveryServices.noneEndpoint(URL, other, List.of(DiscoveryServices.ANONYMOUS))))
                .build();

        assertThat(custom.endpoints()).singleElement()
                .satisfies(e -> assertThat(e.server()).isEqualTo(custom.applicationDescription()));
    }

    @Test
    void findServersReturnsThisServerForNoOrItsOwnUri() {
        assertThat(findServers("opc.tcp://gw:4840/").servers()).singleElement().satisfies(server -> {
            assertThat(server.applicationUri()).isEqualTo("urn:acme:line1");
            assertThat(server.discoveryUrls()).containsExactly("opc.tcp://gw:4840/line1");
        });
        assertThat(findServers(URL, "urn:acme:line1").servers()).hasSize(1);
        assertThat(findServers(URL, "urn:acme:line2").servers()).isEmpty();
    }

    @Test
    void aConfigurationWithoutApplicationOrEndpointIsRefused() {
        assertThatThrownBy(() -> DiscoveryServices.builder().endpointUrls(List.of(URL)).build())
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> DiscoveryServices.builder().application("urn:a", null, "A").build())
                .isInstanceOf(IllegalStateException.class);
    }

    private static GetEndpointsResponse getEndpoints(DiscoveryServices services, String url) {
        return services.getEndpoints(new GetEndpointsRequest(TestChunks.requestHeader(1), url, null, null));
    }

    private GetEndpointsResponse getEndpoints(String url, String profile) {
        return discovery.getEndpoints(new GetEndpointsRequest(TestChunks.requestHeader(1), url, null,
                new String[] {profile}));
    }

    private FindServersResponse findServers(String url, String... serverUris) {
        return discovery.findServers(new FindServersRequest(TestChunks.requestHeader(1), url, null, serverUris));
    }
}
