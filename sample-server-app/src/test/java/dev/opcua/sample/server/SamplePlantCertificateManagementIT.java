package dev.opcua.sample.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.ubyte;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.server.OpcUaServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.Security;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.eclipse.milo.opcua.sdk.client.DiscoveryClient;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.OpcUaClientConfig;
import org.eclipse.milo.opcua.sdk.client.identity.AnonymousProvider;
import org.eclipse.milo.opcua.sdk.client.identity.IdentityProvider;
import org.eclipse.milo.opcua.sdk.client.identity.UsernameProvider;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.security.DefaultClientCertificateValidator;
import org.eclipse.milo.opcua.stack.core.security.MemoryCertificateQuarantine;
import org.eclipse.milo.opcua.stack.core.security.MemoryTrustListManager;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodResult;
import org.eclipse.milo.opcua.stack.core.types.structured.EndpointDescription;
import org.eclipse.milo.opcua.stack.core.util.validation.ValidationCheck;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The sample plant's certificate management as application.yml configures it (Part 12, 7.10): the user
 * {@code admin} (SecurityAdmin) reads the trust list, the rejected list and a certificate signing request over
 * SignAndEncrypt; {@code operator} and the anonymous user are denied. Eclipse Milo 1.1.2 calls the methods.
 */
@SpringBootTest(properties = {"opcua.server.port=0", "opcua.server.shutdown-delay=0s",
        "opcua.server.history.enabled=false", "opcua.console.enabled=false"})
class SamplePlantCertificateManagementIT {

    private static final String CLIENT_URI = "urn:dev.opcua:sample:certificate-admin";
    private static final NodeId SERVER_CONFIGURATION = new NodeId(0, NodeIds.ServerConfiguration);
    private static final NodeId TRUST_LIST = new NodeId(0,
            NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList);

    static {
        // Milo's client encrypts passwords with RSA-OAEP-SHA256 through a JCA provider; the JDK has none.
        Security.addProvider(new BouncyCastleProvider());
    }

    @TempDir
    static Path pki;
    private static ApplicationCertificate clientCertificate;

    @Autowired
    OpcUaServer server;

    @BeforeAll
    static void trustTheClient() throws Exception {
        clientCertificate = CertificateBuilder.forApplication("sample certificate admin").applicationUri(CLIENT_URI)
                .hostNames("localhost").build();
        Files.createDirectories(pki.resolve("trusted/certs"));
        Files.write(pki.resolve("trusted/certs/admin-client.der"), clientCertificate.certificate().getEncoded());
    }

    @DynamicPropertySource
    static void pkiDirectory(DynamicPropertyRegistry registry) {
        registry.add("opcua.server.security.pki-dir", () -> pki.toString());
    }

    @Test
    void admin_reads_the_trust_list_and_the_rejected_list_and_gets_a_signing_request() throws Exception {
        OpcUaClient admin = connect(new UsernameProvider("admin", "line1-admin"));
        try {
            CallMethodResult open = call(admin, TRUST_LIST,
                    NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Open,
                    new Variant(ubyte(1)));
            assertThat(open.getStatusCode().isGood()).as("Open: %s", open.getStatusCode()).isTrue();
            Object handle = open.getOutputArguments()[0].getValue();
            CallMethodResult read = call(admin, TRUST_LIST,
                    NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Read,
                    new Variant(handle), new Variant(65_535));
            assertThat(read.getStatusCode().isGood()).as("Read: %s", read.getStatusCode()).isTrue();
            byte[] content = ((ByteString) read.getOutputArguments()[0].getValue()).bytesOrEmpty();
            assertThat(indexOf(content, clientCertificate.certificate().getEncoded())).as("our certificate in the file")
                    .isPositive();
            assertThat(call(admin, TRUST_LIST,
                    NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Close,
                    new Variant(handle)).getStatusCode().isGood()).isTrue();

            assertThat(call(admin, SERVER_CONFIGURATION, NodeIds.ServerConfiguration_GetRejectedList)
                    .getStatusCode().isGood()).isTrue();
            CallMethodResult csr = call(admin, SERVER_CONFIGURATION, NodeIds.ServerConfiguration_CreateSigningRequest,
                    Variant.NULL_VALUE, Variant.NULL_VALUE, Variant.NULL_VALUE, new Variant(false), Variant.NULL_VALUE);
            assertThat(csr.getStatusCode().isGood()).as("CreateSigningRequest: %s", csr.getStatusCode()).isTrue();
            assertThat(((ByteString) csr.getOutputArguments()[0].getValue()).length()).isPositive();
        } finally {
            admin.disconnect();
        }
    }

    @Test
    void operator_and_anonymous_are_denied() throws Exception {
        for (IdentityProvider identity : List.of(new UsernameProvider("operator", "line1-operator"),
                new AnonymousProvider())) {
            OpcUaClient client = connect(identity);
            try {
                assertThat(call(client, SERVER_CONFIGURATION, NodeIds.ServerConfiguration_GetRejectedList)
                        .getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_UserAccessDenied);
                assertThat(call(client, TRUST_LIST,
                        NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Open,
                        new Variant(ubyte(1))).getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_UserAccessDenied);
            } finally {
                client.disconnect();
            }
        }
    }

    private static CallMethodResult call(OpcUaClient client, NodeId object, int method, Variant... inputs)
            throws Exception {
        return client.call(List.of(new CallMethodRequest(object, new NodeId(0, method), inputs))).getResults()[0];
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** A Milo session over Basic256Sha256 SignAndEncrypt, trusting the server's certificate. */
    private OpcUaClient connect(IdentityProvider identity) throws Exception {
        List<EndpointDescription> endpoints = DiscoveryClient.getEndpoints(server.endpointUrl()).get(10,
                TimeUnit.SECONDS);
        EndpointDescription endpoint = endpoints.stream()
                .filter(e -> SecurityPolicy.Basic256Sha256.getUri().equals(e.getSecurityPolicyUri())
                        && e.getSecurityMode() == MessageSecurityMode.SignAndEncrypt)
                .findFirst().orElseThrow();
        MemoryTrustListManager trustList = new MemoryTrustListManager();
        X509Certificate serverCertificate = server.applicationCertificate().certificate();
        trustList.addTrustedCertificate(serverCertificate);
        OpcUaClientConfig config = OpcUaClientConfig.builder()
                .setEndpoint(endpoint)
                .setDiscoveryEndpoints(endpoints)
                .setApplicationName(LocalizedText.english("sample certificate admin"))
                .setApplicationUri(CLIENT_URI)
                .setCertificate(clientCertificate.certificate())
                .setCertificateChain(new X509Certificate[] {clientCertificate.certificate()})
                .setKeyPair(new KeyPair(clientCertificate.certificate().getPublicKey(), clientCertificate.privateKey()))
                .setCertificateValidator(new DefaultClientCertificateValidator(trustList,
                        ValidationCheck.NO_OPTIONAL_CHECKS, new MemoryCertificateQuarantine()))
                .setIdentityProvider(identity)
                .setRequestTimeout(uint(10_000))
                .build();
        OpcUaClient client = OpcUaClient.create(config);
        try {
            return client.connect();
        } catch (Exception e) {
            client.disconnect();
            throw e;
        }
    }
}
