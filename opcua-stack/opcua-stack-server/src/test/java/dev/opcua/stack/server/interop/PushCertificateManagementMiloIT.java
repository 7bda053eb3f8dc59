package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.ubyte;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.core.security.pki.CertificateLoader;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.TrustListDataType;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.roles.RoleMapper;
import dev.opcua.stack.server.roles.WellKnownRole;
import dev.opcua.stack.server.session.UserNameIdentityValidator;
import dev.opcua.stack.server.testing.MiloClients;
import dev.opcua.stack.server.testing.TestSigningCa;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.Security;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.eclipse.milo.opcua.sdk.client.DiscoveryClient;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.OpcUaClientConfig;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Push certificate management (Part 12, 7.10) driven by Eclipse Milo 1.1.2's client, which calls the
 * standard methods generically: a SecurityAdmin renews the server certificate through CreateSigningRequest,
 * a test CA, UpdateCertificate and ApplyChanges; reads, adds to and replaces the TrustList; and the
 * refusals (another role, a channel that does not encrypt, a certificate for another key) change nothing.
 */
class PushCertificateManagementMiloIT {

    private static final String SERVER_URI = "urn:test:push:server";
    private static final String SERVER_NAME = "push test server";
    private static final String CLIENT_URI = "urn:test:push:client";
    private static final NodeId SERVER_CONFIGURATION = new NodeId(0, NodeIds.ServerConfiguration);
    private static final NodeId TRUST_LIST = new NodeId(0,
            NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList);
    private static final NodeId RSA_SHA256 = new NodeId(0, NodeIds.RsaSha256ApplicationCertificateType);
    private static final NodeId SERVER_STATE = new NodeId(0, NodeIds.Server_ServerStatus_State);
    private static final Map<String, String> USERS = Map.of("admin", "a-secret", "operator", "o-secret");

    private static boolean addedBouncyCastle;
    private static ApplicationCertificate ca;
    private static ApplicationCertificate miloCertificate;

    @TempDir
    Path pkiRoot;
    private PkiDirectory pki;
    private OpcUaServer server;
    private List<EndpointDescription> endpoints;

    @BeforeAll
    static void certificates() {
        // Milo's client signs RSA-PSS through BouncyCastle
        addedBouncyCastle = Security.addProvider(new BouncyCastleProvider()) != -1;
        ca = CertificateBuilder.forApplication("push test CA").ca(true).build();
        miloCertificate = CertificateBuilder.forApplication("push milo client").applicationUri(CLIENT_URI)
                .hostNames("localhost").build();
    }

    @AfterAll
    static void removeBouncyCastle() {
        if (addedBouncyCastle) {
            Security.removeProvider(BouncyCastleProvider.PROVIDER_NAME);
        }
    }

    @BeforeEach
    void start() throws Exception {
        pki = new PkiDirectory(pkiRoot, Duration.ZERO, PkiDirectory.DEFAULT_MAX_REJECTED);
        pki.addCertificate(miloCertificate.certificate(), true);
        server = OpcUaServer.builder()
                .applicationUri(SERVER_URI)
                .applicationName(SERVER_NAME)
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .security(List.of(
                        new EndpointSecurity(dev.opcua.stack.core.security.SecurityPolicy.None,
                                dev.opcua.stack.core.types.enumerated.MessageSecurityMode.None),
                        new EndpointSecurity(dev.opcua.stack.core.security.SecurityPolicy.Basic256Sha256,
                                dev.opcua.stack.core.types.enumerated.MessageSecurityMode.Sign),
                        new EndpointSecurity(dev.opcua.stack.core.security.SecurityPolicy.Basic256Sha256,
                                dev.opcua.stack.core.types.enumerated.MessageSecurityMode.SignAndEncrypt)))
                .pki(pki)
                .identityTypes(UserNameIdentityValidator.of(USERS, true),
                        EnumSet.of(UserTokenType.Anonymous, UserTokenType.UserName))
                .roleMapper(RoleMapper.byUserName(Map.of("admin", EnumSet.of(WellKnownRole.SECURITY_ADMIN),
                        "operator", EnumSet.of(WellKnownRole.OPERATOR))))
                .maxTrustListSize(64 * 1024)
                .build()
                .start();
        endpoints = DiscoveryClient.getEndpoints(server.endpointUrl()).get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void a_security_admin_renews_the_server_certificate_through_a_signing_request_and_a_ca() throws Exception {
        ApplicationCertificate before = server.applicationCertificate();
        OpcUaClient admin = connect(MessageSecurityMode.SignAndEncrypt, "admin", before.certificate());
        try {
            byte[] nonce = new byte[32];
            new SecureRandom().nextBytes(nonce);
            CallMethodResult csr = call(admin, SERVER_CONFIGURATION, NodeIds.ServerConfiguration_CreateSigningRequest,
                    Variant.NULL_VALUE, new Variant(RSA_SHA256), Variant.NULL_VALUE, new Variant(true),
                    new Variant(ByteString.of(nonce)));
            assertThat(csr.getStatusCode().isGood()).as("CreateSigningRequest: %s", csr.getStatusCode()).isTrue();
            X509Certificate renewed = TestSigningCa.sign(ca, ((ByteString) csr.getOutputArguments()[0].getValue()).bytes());
            assertThat(renewed.getPublicKey()).as("a new key").isNotEqualTo(before.certificate().getPublicKey());

            CallMethodResult update = updateCertificate(admin, renewed);
            assertThat(update.getStatusCode().isGood()).as("UpdateCertificate: %s", update.getStatusCode()).isTrue();
            assertThat(update.getOutputArguments()[0].getValue()).as("applyChangesRequired").isEqualTo(true);
            assertThat(server.applicationCertificate()).as("nothing changes before ApplyChanges").isSameAs(before);

            CallMethodResult apply = call(admin, SERVER_CONFIGURATION, NodeIds.ServerConfiguration_ApplyChanges);
            assertThat(apply.getStatusCode().isGood()).as("ApplyChanges: %s", apply.getStatusCode()).isTrue();

            List<EndpointDescription> after = DiscoveryClient.getEndpoints(server.endpointUrl()).get(10, TimeUnit.SECONDS);
            assertThat(after).allSatisfy(e -> assertThat(e.getServerCertificate().bytesOrEmpty())
                    .isEqualTo(renewed.getEncoded()));
            // a new connection validates the CA-signed certificate the OpenSecureChannel and CreateSession carry
            endpoints = after;
            OpcUaClient fresh = connect(MessageSecurityMode.SignAndEncrypt, "admin", ca.certificate());
            try {
                assertThat(fresh.readValue(0, org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn.Neither, SERVER_STATE).getStatusCode().isGood()).isTrue();
            } finally {
                fresh.disconnect();
            }
            CallMethodResult certificates = call(admin, SERVER_CONFIGURATION, NodeIds.ServerConfiguration_GetCertificates,
                    Variant.NULL_VALUE);
            assertThat(certificates.getStatusCode().isGood()).as("GetCertificates: %s", certificates.getStatusCode())
                    .isTrue();
            assertThat((NodeId[]) certificates.getOutputArguments()[0].getValue()).containsExactly(RSA_SHA256);
            assertThat(((ByteString[]) certificates.getOutputArguments()[1].getValue())[0].bytes())
                    .isEqualTo(renewed.getEncoded());
            assertThat(admin.readValue(0, org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn.Neither,
                    new NodeId(0, NodeIds.ServerConfiguration_GetCertificates_OutputArguments)).getStatusCode().isGood())
                    .as("the 1.05 method's arguments are in the address space").isTrue();
            assertThat(admin.readValue(0, org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn.Neither, SERVER_STATE).getStatusCode().isGood())
                    .as("the channel opened before keeps working").isTrue();
            Path own = pki.ownCertsDir().resolve(SERVER_NAME + ".der");
            assertThat(CertificateLoader.readCertificates(own).get(0)).as("kept across a restart").isEqualTo(renewed);
        } finally {
            admin.disconnect();
        }
    }

    @Test
    void a_certificate_for_another_key_is_refused_and_nothing_changes() throws Exception {
        ApplicationCertificate before = server.applicationCertificate();
        byte[] ownBefore = Files.readAllBytes(pki.ownCertsDir().resolve(SERVER_NAME + ".der"));
        OpcUaClient admin = connect(MessageSecurityMode.SignAndEncrypt, "admin", before.certificate());
        try {
            X509Certificate stranger = CertificateBuilder.forApplication(SERVER_NAME).applicationUri(SERVER_URI)
                    .hostNames("localhost").issuedBy(ca).build().certificate();

            CallMethodResult update = updateCertificate(admin, stranger);

            assertThat(update.getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_SecurityChecksFailed);
            assertThat(call(admin, SERVER_CONFIGURATION, NodeIds.ServerConfiguration_ApplyChanges).getStatusCode()
                    .isGood()).isTrue();
            assertThat(server.applicationCertificate()).isSameAs(before);
            assertThat(Files.readAllBytes(pki.ownCertsDir().resolve(SERVER_NAME + ".der"))).isEqualTo(ownBefore);
        } finally {
            admin.disconnect();
        }
    }

    @Test
    void the_trust_list_is_read_added_to_and_replaced() throws Exception {
        OpcUaClient admin = connect(MessageSecurityMode.SignAndEncrypt, "admin",
                server.applicationCertificate().certificate());
        try {
            TrustListDataType read = readTrustList(admin);
            assertThat(read.specifiedLists()).isEqualTo(15);
            assertThat(read.trustedCertificates()).extracting(b -> b.bytes())
                    .containsExactly(miloCertificate.certificate().getEncoded());

            ApplicationCertificate newcomer = CertificateBuilder.forApplication("push newcomer")
                    .applicationUri("urn:test:push:newcomer").hostNames("localhost").build();
            CallMethodResult add = call(admin, TRUST_LIST,
                    NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_AddCertificate,
                    new Variant(ByteString.of(newcomer.certificate().getEncoded())), new Variant(true));
            assertThat(add.getStatusCode().isGood()).as("AddCertificate: %s", add.getStatusCode()).isTrue();
            OpcUaClient accepted = connect(newcomer, "urn:test:push:newcomer", MessageSecurityMode.SignAndEncrypt,
                    "operator", server.applicationCertificate().certificate());
            accepted.disconnect();

            // Write + EraseExisting, then CloseAndUpdate: the trusted certificates are Milo's only again
            TrustListDataType onlyMilo = new TrustListDataType(1, new dev.opcua.stack.core.types.builtin.ByteString[] {
                    dev.opcua.stack.core.types.builtin.ByteString.of(miloCertificate.certificate().getEncoded())},
                    null, null, null);
            long handle = uint32(call(admin, TRUST_LIST,
                    NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Open,
                    new Variant(ubyte(6))));
            byte[] content = dev.opcua.stack.server.certificates.TrustListCodec.encode(onlyMilo);
            assertThat(call(admin, TRUST_LIST,
                    NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Write,
                    new Variant(uint(handle)), new Variant(ByteString.of(content))).getStatusCode().isGood()).isTrue();
            CallMethodResult closeAndUpdate = call(admin, TRUST_LIST,
                    NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_CloseAndUpdate,
                    new Variant(uint(handle)));
            assertThat(closeAndUpdate.getStatusCode().isGood()).as("CloseAndUpdate: %s", closeAndUpdate.getStatusCode())
                    .isTrue();
            assertThat(closeAndUpdate.getOutputArguments()[0].getValue()).isEqualTo(false);
            assertThat(readTrustList(admin).trustedCertificates()).extracting(b -> b.bytes())
                    .containsExactly(miloCertificate.certificate().getEncoded());
        } finally {
            admin.disconnect();
        }
    }

    @Test
    void a_trust_list_written_past_max_trust_list_size_is_refused() throws Exception {
        OpcUaClient admin = connect(MessageSecurityMode.SignAndEncrypt, "admin",
                server.applicationCertificate().certificate());
        try {
            long handle = uint32(call(admin, TRUST_LIST,
                    NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Open,
                    new Variant(ubyte(6))));
            CallMethodResult write = call(admin, TRUST_LIST,
                    NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Write,
                    new Variant(uint(handle)), new Variant(ByteString.of(new byte[64 * 1024 + 1])));
            assertThat(write.getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_RequestTooLarge);
            call(admin, TRUST_LIST, NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Close,
                    new Variant(uint(handle)));
            assertThat(readTrustList(admin).trustedCertificates()).hasSize(1);
        } finally {
            admin.disconnect();
        }
    }

    @Test
    void the_trust_list_file_refuses_other_modes_a_second_writer_foreign_handles_and_edits_while_open()
            throws Exception {
        X509Certificate serverCertificate = server.applicationCertificate().certificate();
        OpcUaClient first = connect(MessageSecurityMode.SignAndEncrypt, "admin", serverCertificate);
        OpcUaClient second = connect(MessageSecurityMode.SignAndEncrypt, "admin", serverCertificate);
        int open = NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Open;
        try {
            assertThat(call(first, TRUST_LIST, open, new Variant(ubyte(2))).getStatusCode().getValue())
                    .as("Write without EraseExisting").isEqualTo(StatusCodes.Bad_NotSupported);
            long writing = uint32(call(first, TRUST_LIST, open, new Variant(ubyte(6))));
            assertThat(call(second, TRUST_LIST, open, new Variant(ubyte(6))).getStatusCode().getValue())
                    .isEqualTo(StatusCodes.Bad_NotWritable);
            assertThat(call(second, TRUST_LIST,
                    NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Close,
                    new Variant(uint(writing))).getStatusCode().getValue()).as("another session's handle")
                    .isEqualTo(StatusCodes.Bad_InvalidArgument);
            assertThat(call(second, TRUST_LIST,
                    NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_RemoveCertificate,
                    new Variant("00".repeat(20)), new Variant(true)).getStatusCode().getValue())
                    .isEqualTo(StatusCodes.Bad_InvalidState);
            assertThat(call(first, TRUST_LIST,
                    NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Read,
                    new Variant(uint(writing)), new Variant(10)).getStatusCode().getValue())
                    .as("reading a handle opened for writing").isEqualTo(StatusCodes.Bad_InvalidState);
            assertThat(call(first, TRUST_LIST,
                    NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Close,
                    new Variant(uint(writing))).getStatusCode().isGood()).isTrue();
            assertThat(call(second, TRUST_LIST,
                    NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_RemoveCertificate,
                    new Variant("00".repeat(20)), new Variant(true)).getStatusCode().getValue())
                    .as("an unknown thumbprint").isEqualTo(StatusCodes.Bad_InvalidArgument);
            assertThat(readTrustList(second).trustedCertificates()).as("the discarded write changed nothing")
                    .hasSize(1);
        } finally {
            first.disconnect();
            second.disconnect();
        }
    }

    @Test
    void an_operator_is_denied_and_a_channel_that_does_not_encrypt_is_insufficient() throws Exception {
        X509Certificate serverCertificate = server.applicationCertificate().certificate();
        OpcUaClient operator = connect(MessageSecurityMode.SignAndEncrypt, "operator", serverCertificate);
        try {
            assertThat(call(operator, SERVER_CONFIGURATION, NodeIds.ServerConfiguration_GetRejectedList)
                    .getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_UserAccessDenied);
            assertThat(call(operator, TRUST_LIST,
                    NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Open,
                    new Variant(ubyte(1))).getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_UserAccessDenied);
        } finally {
            operator.disconnect();
        }
        OpcUaClient signOnly = connect(MessageSecurityMode.Sign, "admin", serverCertificate);
        try {
            assertThat(call(signOnly, SERVER_CONFIGURATION, NodeIds.ServerConfiguration_GetRejectedList)
                    .getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_SecurityModeInsufficient);
        } finally {
            signOnly.disconnect();
        }
        OpcUaClient none = MiloClients.overNone(server.endpointUrl(), new UsernameProvider("admin", "a-secret"));
        try {
            assertThat(call(none, SERVER_CONFIGURATION, NodeIds.ServerConfiguration_CreateSigningRequest,
                    Variant.NULL_VALUE, Variant.NULL_VALUE, Variant.NULL_VALUE, new Variant(false), Variant.NULL_VALUE)
                    .getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_SecurityModeInsufficient);
        } finally {
            none.disconnect();
        }
    }

    // ---- helpers

    private CallMethodResult updateCertificate(OpcUaClient client, X509Certificate certificate) throws Exception {
        return call(client, SERVER_CONFIGURATION, NodeIds.ServerConfiguration_UpdateCertificate, Variant.NULL_VALUE,
                new Variant(RSA_SHA256), new Variant(ByteString.of(certificate.getEncoded())),
                new Variant(new ByteString[] {ByteString.of(ca.certificate().getEncoded())}), Variant.NULL_VALUE,
                Variant.NULL_VALUE);
    }

    private static TrustListDataType readTrustList(OpcUaClient client) throws Exception {
        long handle = uint32(call(client, TRUST_LIST,
                NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Open,
                new Variant(ubyte(1))));
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        while (true) {
            CallMethodResult read = call(client, TRUST_LIST,
                    NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Read,
                    new Variant(uint(handle)), new Variant(4096));
            assertThat(read.getStatusCode().isGood()).as("Read: %s", read.getStatusCode()).isTrue();
            byte[] chunk = ((ByteString) read.getOutputArguments()[0].getValue()).bytesOrEmpty();
            if (chunk.length == 0) {
                break;
            }
            content.writeBytes(chunk);
        }
        assertThat(call(client, TRUST_LIST,
                NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Close,
                new Variant(uint(handle))).getStatusCode().isGood()).isTrue();
        byte[] bytes = content.toByteArray();
        return TrustListDataType.CODEC.decode(new UaDecoder(CodecRegistry.standard(), EncodingLimits.DEFAULT,
                Unpooled.wrappedBuffer(bytes)));
    }

    private static long uint32(CallMethodResult result) {
        assertThat(result.getStatusCode().isGood()).as("status %s", result.getStatusCode()).isTrue();
        return ((Number) result.getOutputArguments()[0].getValue()).longValue();
    }

    private static CallMethodResult call(OpcUaClient client, NodeId object, int method, Variant... inputs)
            throws Exception {
        return client.call(List.of(new CallMethodRequest(object, new NodeId(0, method), inputs))).getResults()[0];
    }

    private OpcUaClient connect(MessageSecurityMode mode, String user, X509Certificate trusted) throws Exception {
        return connect(miloCertificate, CLIENT_URI, mode, user, trusted);
    }

    /** A Milo session over Basic256Sha256 in {@code mode} as {@code user}, trusting {@code trusted} only. */
    private OpcUaClient connect(ApplicationCertificate certificate, String applicationUri, MessageSecurityMode mode,
            String user, X509Certificate trusted) throws Exception {
        EndpointDescription endpoint = endpoints.stream()
                .filter(e -> SecurityPolicy.Basic256Sha256.getUri().equals(e.getSecurityPolicyUri())
                        && e.getSecurityMode() == mode)
                .findFirst().orElseThrow();
        MemoryTrustListManager trustList = new MemoryTrustListManager();
        trustList.addTrustedCertificate(trusted);
        IdentityProvider identity = new UsernameProvider(user, USERS.get(user));
        OpcUaClientConfig config = OpcUaClientConfig.builder()
                .setEndpoint(endpoint)
                .setDiscoveryEndpoints(endpoints)
                .setApplicationName(LocalizedText.english("push milo client"))
                .setApplicationUri(applicationUri)
                .setCertificate(certificate.certificate())
                .setCertificateChain(new X509Certificate[] {certificate.certificate()})
                .setKeyPair(new KeyPair(certificate.certificate().getPublicKey(), certificate.privateKey()))
                .setCertificateValidator(new DefaultClientCertificateValidator(trustList,
                        ValidationCheck.NO_OPTIONAL_CHECKS, new MemoryCertificateQuarantine()))
                .setIdentityProvider(identity)
                .setRequestTimeout(uint(10_000))
                .setKeepAliveInterval(uint(60_000))
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
