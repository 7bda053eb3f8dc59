package dev.opcua.benchmarks.server;

import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.RequestHeaders;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.ApplicationType;
import dev.opcua.stack.core.types.enumerated.BrowseDirection;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.ActivateSessionRequest;
import dev.opcua.stack.core.types.structured.ActivateSessionResponse;
import dev.opcua.stack.core.types.structured.AnonymousIdentityToken;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import dev.opcua.stack.core.types.structured.BrowseDescription;
import dev.opcua.stack.core.types.structured.BrowseRequest;
import dev.opcua.stack.core.types.structured.BrowseResponse;
import dev.opcua.stack.core.types.structured.BrowseResult;
import dev.opcua.stack.core.types.structured.CallMethodRequest;
import dev.opcua.stack.core.types.structured.CallMethodResult;
import dev.opcua.stack.core.types.structured.CallRequest;
import dev.opcua.stack.core.types.structured.CallResponse;
import dev.opcua.stack.core.types.structured.CreateSessionRequest;
import dev.opcua.stack.core.types.structured.CreateSessionResponse;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.ReferenceDescription;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.SignatureData;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.core.types.structured.ViewDescription;
import dev.opcua.stack.core.types.structured.WriteRequest;
import dev.opcua.stack.core.types.structured.WriteResponse;
import dev.opcua.stack.core.types.structured.WriteValue;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A minimal session client on our channel, good for any server: Read, Write, Browse, Call. */
final class BenchClient implements AutoCloseable {

    private static final ViewDescription NO_VIEW = new ViewDescription(NodeId.NULL, DateTime.MIN_VALUE, 0);

    private final ClientResources resources;
    private final UaTcpClientChannel channel;
    private final NodeId token;

    private BenchClient(ClientResources resources, UaTcpClientChannel channel, NodeId token) {
        this.resources = resources;
        this.channel = channel;
        this.token = token;
    }

    static BenchClient connect(String url) throws Exception {
        ClientResources resources = ClientResources.create();
        try {
            UaTcpClientChannel channel = UaTcpClientChannel.connect(url, TransportQuotas.DEFAULT, resources)
                    .get(10, TimeUnit.SECONDS);
            CreateSessionResponse created = channel.request(new CreateSessionRequest(RequestHeaders.create(0),
                    new ApplicationDescription("urn:dev.opcua:bench:test", null, LocalizedText.of("bench test"),
                            ApplicationType.Client, null, null, null),
                    null, url, "bench-test", ByteString.NULL, ByteString.NULL, 60_000, 0), CreateSessionResponse.class)
                    .get(10, TimeUnit.SECONDS);
            NodeId token = created.authenticationToken();
            ActivateSessionResponse activated = channel.request(new ActivateSessionRequest(header(token),
                    new SignatureData(null, ByteString.NULL), null, null,
                    ExtensionObject.of(new AnonymousIdentityToken(anonymousPolicy(created))),
                    new SignatureData(null, ByteString.NULL)), ActivateSessionResponse.class).get(10, TimeUnit.SECONDS);
            if (!activated.responseHeader().serviceResult().isGood()) {
                throw new IllegalStateException("ActivateSession failed: " + activated.responseHeader().serviceResult());
            }
            return new BenchClient(resources, channel, token);
        } catch (Exception e) {
            resources.close();
            throw e;
        }
    }

    /** The policy id the server announces for anonymous users (Milo and ours name it differently). */
    private static String anonymousPolicy(CreateSessionResponse created) {
        for (EndpointDescription endpoint : created.serverEndpoints()) {
            if (endpoint.userIdentityTokens() == null) {
                continue;
            }
            for (UserTokenPolicy policy : endpoint.userIdentityTokens()) {
                if (policy.tokenType() == UserTokenType.Anonymous) {
                    return policy.policyId();
                }
            }
        }
        return "anonymous";
    }

    private static RequestHeader header(NodeId token) {
        return new RequestHeader(token, DateTime.now(), RequestHeaders.nextHandle(), 0, null, 10_000,
                ExtensionObject.NULL);
    }

    DataValue read(NodeId node) throws Exception {
        ReadResponse response = channel.request(new ReadRequest(header(token), 0, TimestampsToReturn.Both,
                new ReadValueId[] {new ReadValueId(node, AttributeIds.Value, null, QualifiedName.NULL)}),
                ReadResponse.class).get(10, TimeUnit.SECONDS);
        return response.results()[0];
    }

    StatusCode write(NodeId node, Variant value) throws Exception {
        WriteResponse response = channel.request(new WriteRequest(header(token), new WriteValue[] {
                new WriteValue(node, AttributeIds.Value, null, DataValue.of(value))}), WriteResponse.class)
                .get(10, TimeUnit.SECONDS);
        return response.results()[0];
    }

    CallMethodResult call(NodeId object, NodeId method, Variant... inputs) throws Exception {
        CallResponse response = channel.request(new CallRequest(header(token), new CallMethodRequest[] {
                new CallMethodRequest(object, method, inputs)}), CallResponse.class).get(10, TimeUnit.SECONDS);
        return response.results()[0];
    }

    /** Forward hierarchical references of {@code node}, without continuation points (few enough children). */
    List<ReferenceDescription> browse(NodeId node) throws Exception {
        BrowseResponse response = channel.request(new BrowseRequest(header(token), NO_VIEW, 0,
                new BrowseDescription[] {new BrowseDescription(node, BrowseDirection.Forward,
                        NodeId.ns0(NodeIds.HierarchicalReferences), true, 0, 63)}), BrowseResponse.class)
                .get(10, TimeUnit.SECONDS);
        BrowseResult result = response.results()[0];
        if (!result.statusCode().isGood()) {
            throw new IllegalStateException("Browse of " + node + " failed: " + result.statusCode());
        }
        return result.references() == null ? List.of() : new ArrayList<>(List.of(result.references()));
    }

    @Override
    public void close() throws ExecutionException, TimeoutException {
        try {
            channel.close().get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            resources.close();
        }
    }
}
