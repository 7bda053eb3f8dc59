package dev.opcua.stack.server.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.builtin.ByteString;
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
import dev.opcua.stack.server.testing.TestCertificates;
import dev.opcua.stack.server.testing.TestChunks;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** GetEndpoints (Part 4, 5.4.4) and FindServers (Part 4, 5.4.2) answered from the configuration. */
class DiscoveryServicesTest {

    private static final String URL = "opc.tcp://server.local:4840/line1";

    private final DiscoveryServices discovery = DiscoveryServices.builder()
            .application("urn:acme:line1", "urn:acme:opcua", "Line 1")
            .endpointUrls(List.of(URL))
            .build();

    @Test
    void endpoints_describe_security_policy_none_with_the_application_and_anonymous_access() {
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
    void the_response_echoes_the_request_handle() {
        GetEndpointsRequest request = new GetEndpointsRequest(TestChunks.requestHeader(4711), URL, null, null);

        assertThat(discovery.getEndpoints(request).responseHeader().requestHandle()).isEqualTo(4711);
    }

    @Test
    void urls_carry_the_host_name_the_client_used() {
        EndpointDescription endpoint = getEndpoints(discovery, "opc.tcp://10.0.0.7:4840/line1").endpoints()[0];

        assertThat(endpoint.endpointUrl()).isEqualTo("opc.tcp://10.0.0.7:4840/line1");
        assertThat(endpoint.server().discoveryUrls()).containsExactly("opc.tcp://10.0.0.7:4840/line1");
    }

    @Test
    void an_ipv6_host_keeps_its_brackets() {
        assertThat(getEndpoints(discovery, "opc.tcp://[::1]:4840/").endpoints()[0].endpointUrl())
                .isEqualTo("opc.tcp://[::1]:4840/line1");
    }

    @Test
    void the_configured_urls_are_returned_when_the_option_is_off_or_the_request_has_no_usable_url() {
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
    void endpoints_are_filtered_by_transport_profile() {
        assertThat(getEndpoints(URL, DiscoveryServices.TRANSPORT_PROFILE_UATCP).endpoints()).hasSize(1);
        assertThat(getEndpoints(URL, DiscoveryServices.TRANSPORT_PROFILE_UATCP + "?x=1").endpoints()).hasSize(1);
        assertThat(getEndpoints(URL, "http://opcfoundation.org/UA-Profile/Transport/https-uabinary").endpoints())
                .isEmpty();
    }

    @Test
    void configured_endpoints_get_the_application_description_as_their_server() {
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
    void find_servers_returns_this_server_for_no_or_its_own_uri() {
        assertThat(findServers("opc.tcp://gw:4840/").servers()).singleElement().satisfies(server -> {
            assertThat(server.applicationUri()).isEqualTo("urn:acme:line1");
            assertThat(server.discoveryUrls()).containsExactly("opc.tcp://gw:4840/line1");
        });
        assertThat(findServers(URL, "urn:acme:line1").servers()).hasSize(1);
        assertThat(findServers(URL, "urn:acme:line2").servers()).isEmpty();
    }

    @Test
    void a_configuration_without_application_or_endpoint_is_refused() {
        assertThatThrownBy(() -> DiscoveryServices.builder().endpointUrls(List.of(URL)).build())
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> DiscoveryServices.builder().application("urn:a", null, "A").build())
                .isInstanceOf(IllegalStateException.class);
    }

    // --- secured endpoints

    private static final ApplicationCertificate SERVER = TestCertificates.get("discovery-line1");
    private static final EndpointSecurity BASIC_SIGN =
            new EndpointSecurity(SecurityPolicy.Basic256Sha256, MessageSecurityMode.Sign);
    private static final EndpointSecurity BASIC_ENCRYPT =
            new EndpointSecurity(SecurityPolicy.Basic256Sha256, MessageSecurityMode.SignAndEncrypt);
    private static final EndpointSecurity PSS_ENCRYPT =
            new EndpointSecurity(SecurityPolicy.Aes256_Sha256_RsaPss, MessageSecurityMode.SignAndEncrypt);
    private static final List<UserTokenType> ALL_TOKENS =
            List.of(UserTokenType.Anonymous, UserTokenType.UserName, UserTokenType.Certificate);

    private static DiscoveryServices.Builder secured(List<EndpointSecurity> pairs, ApplicationCertificate certificate) {
        return DiscoveryServices.builder()
                .application("urn:acme:line1", "urn:acme:opcua", "Line 1")
                .endpointUrls(List.of(URL, "opc.tcp://backup.local:4840/line1"))
                .security(pairs, certificate);
    }

    private static List<String> policyIds(EndpointDescription endpoint) {
        return Arrays.stream(endpoint.userIdentityTokens()).map(UserTokenPolicy::policyId).toList();
    }

    @Test
    void each_url_gets_one_endpoint_per_security_pair_with_its_level_and_the_server_certificate() {
        List<EndpointSecurity> pairs = List.of(EndpointSecurity.NONE, BASIC_SIGN, BASIC_ENCRYPT, PSS_ENCRYPT);
        List<EndpointDescription> endpoints = secured(pairs, SERVER).build().endpoints();

        assertThat(endpoints).hasSize(8);
        for (int i = 0; i < endpoints.size(); i++) {
            EndpointDescription endpoint = endpoints.get(i);
            EndpointSecurity pair = pairs.get(i % pairs.size());
            assertThat(endpoint.endpointUrl()).isEqualTo(i < 4 ? URL : "opc.tcp://backup.local:4840/line1");
            assertThat(endpoint.securityPolicyUri()).isEqualTo(pair.policy().uri());
            assertThat(endpoint.securityMode()).isEqualTo(pair.mode());
            assertThat(endpoint.securityLevel()).isEqualTo(pair.securityLevel());
            assertThat(endpoint.transportProfileUri()).isEqualTo(DiscoveryServices.TRANSPORT_PROFILE_UATCP);
            assertThat(endpoint.serverCertificate()).isEqualTo(
                    pair.policy() == SecurityPolicy.None ? ByteString.NULL : SERVER.der());
        }
        assertThat(endpoints.get(3).securityLevel()).isGreaterThan(endpoints.get(2).securityLevel());
        assertThat(endpoints.get(2).securityLevel()).isGreaterThan(endpoints.get(1).securityLevel());
    }

    @Test
    void user_token_policies_name_their_type_and_security_policy() {
        List<EndpointDescription> endpoints = secured(List.of(BASIC_SIGN, PSS_ENCRYPT), SERVER)
                .userTokenTypes(ALL_TOKENS).build().endpoints();

        assertThat(policyIds(endpoints.get(0)))
                .containsExactly("anonymous", "username_basic256sha256", "x509_basic256sha256");
        assertThat(policyIds(endpoints.get(1)))
                .containsExactly("anonymous", "username_aes256_sha256_rsapss", "x509_aes256_sha256_rsapss");
        assertThat(endpoints.get(0).userIdentityTokens()[1].securityPolicyUri())
                .as("Part 4, 7.41.4: a Sign endpoint names the password's policy")
                .isEqualTo(SecurityPolicy.Basic256Sha256.uri());
        assertThat(endpoints.get(0).userIdentityTokens()[2].tokenType()).isEqualTo(UserTokenType.Certificate);
        assertThat(endpoints.get(0).userIdentityTokens()[0].securityPolicyUri()).isNull();
    }

    @Test
    void a_policy_id_always_means_the_same_policy() {
        List<EndpointDescription> endpoints = secured(List.of(EndpointSecurity.NONE, BASIC_SIGN, BASIC_ENCRYPT,
                PSS_ENCRYPT), SERVER).userTokenTypes(ALL_TOKENS).build().endpoints();
        Map<String, UserTokenPolicy> byId = new HashMap<>();

        for (EndpointDescription endpoint : endpoints) {
            for (UserTokenPolicy policy : endpoint.userIdentityTokens()) {
                UserTokenPolicy earlier = byId.putIfAbsent(policy.policyId(), policy);
                assertThat(earlier == null ? policy : earlier).isEqualTo(policy);
            }
        }
        assertThat(byId.keySet()).containsExactlyInAnyOrder("anonymous", "username_basic256sha256",
                "x509_basic256sha256", "username_aes256_sha256_rsapss", "x509_aes256_sha256_rsapss");
    }

    @Test
    void a_none_endpoint_secures_user_tokens_with_the_strongest_offered_policy_and_carries_the_certificate() {
        EndpointDescription none = secured(List.of(EndpointSecurity.NONE, BASIC_ENCRYPT, PSS_ENCRYPT), SERVER)
                .userTokenTypes(ALL_TOKENS).build().endpoints().get(0);

        assertThat(none.securityPolicyUri()).isEqualTo(SecurityPolicy.None.uri());
        assertThat(none.securityLevel()).isZero();
        assertThat(none.serverCertificate()).isEqualTo(SERVER.der());
        assertThat(policyIds(none))
                .containsExactly("anonymous", "username_aes256_sha256_rsapss", "x509_aes256_sha256_rsapss");
    }

    @Test
    void a_none_only_server_with_a_certificate_encrypts_passwords_with_basic256_sha256() {
        EndpointDescription none = secured(List.of(EndpointSecurity.NONE), SERVER)
                .userTokenTypes(List.of(UserTokenType.UserName)).build().endpoints().get(0);

        assertThat(policyIds(none)).containsExactly("username_basic256sha256");
        assertThat(none.serverCertificate()).isEqualTo(SERVER.der());
    }

    @Test
    void without_a_certificate_none_endpoints_offer_plain_passwords_only_when_allowed_and_no_user_certificates() {
        DiscoveryServices.Builder noCertificate = DiscoveryServices.builder()
                .application("urn:acme:line1", "urn:acme:opcua", "Line 1")
                .endpointUrls(List.of(URL))
                .userTokenTypes(ALL_TOKENS);

        EndpointDescription strict = noCertificate.build().endpoints().get(0);
        EndpointDescription plain = noCertificate.plainPasswords(true).build().endpoints().get(0);

        assertThat(policyIds(strict)).containsExactly("anonymous");
        assertThat(policyIds(plain)).containsExactly("anonymous", "username_none");
        assertThat(plain.userIdentityTokens()[1].securityPolicyUri()).isEqualTo(SecurityPolicy.None.uri());
        assertThat(plain.serverCertificate().isNull()).isTrue();
        assertThatThrownBy(() -> DiscoveryServices.builder().application("urn:a", null, "A")
                .endpointUrls(List.of(URL)).userTokenTypes(List.of(UserTokenType.Certificate)).build())
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void explicit_user_token_policies_are_used_as_given_on_every_endpoint() {
        UserTokenPolicy custom = new UserTokenPolicy("operators", UserTokenType.UserName, null, null, null);
        List<EndpointDescription> endpoints = secured(List.of(EndpointSecurity.NONE, BASIC_ENCRYPT), SERVER)
                .userTokenPolicies(List.of(custom)).build().endpoints();

        assertThat(endpoints).allSatisfy(e -> assertThat(e.userIdentityTokens()).containsExactly(custom));
        assertThat(endpoints.get(0).serverCertificate().isNull()).isTrue();
    }

    @Test
    void inconsistent_security_is_refused() {
        assertThatThrownBy(() -> secured(List.of(BASIC_ENCRYPT), null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> secured(List.of(), SERVER)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> secured(List.of(BASIC_ENCRYPT, BASIC_ENCRYPT), SERVER))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DiscoveryServices.builder().userTokenTypes(List.of(UserTokenType.IssuedToken)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DiscoveryServices.userTokenPolicy(UserTokenType.Certificate, SecurityPolicy.None))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void the_clients_host_name_keeps_the_certificate_and_policies() {
        DiscoveryServices discovery = secured(List.of(BASIC_ENCRYPT), SERVER).userTokenTypes(ALL_TOKENS).build();

        EndpointDescription endpoint = getEndpoints(discovery, "opc.tcp://10.0.0.7:4840/").endpoints()[0];

        assertThat(endpoint.endpointUrl()).isEqualTo("opc.tcp://10.0.0.7:4840/line1");
        assertThat(endpoint.serverCertificate()).isEqualTo(SERVER.der());
        assertThat(policyIds(endpoint)).containsExactly("anonymous", "username_basic256sha256", "x509_basic256sha256");
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
