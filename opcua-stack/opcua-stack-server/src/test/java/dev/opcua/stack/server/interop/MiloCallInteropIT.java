package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.structured.FindServersRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.discovery.DiscoveryServices;
import dev.opcua.stack.server.namespace0.Namespace0Loader;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.services.RequestGuard;
import dev.opcua.stack.server.services.ServiceDispatcher;
import dev.opcua.stack.server.services.attribute.AttributeServices;
import dev.opcua.stack.server.services.method.CallServices;
import dev.opcua.stack.server.session.IdentityValidator;
import dev.opcua.stack.server.session.SessionManager;
import dev.opcua.stack.server.session.SessionSettings;
import dev.opcua.stack.server.testing.MiloClients;
import dev.opcua.stack.server.transport.UaTcpServer;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.Argument;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Eclipse Milo 1.1.2's client calls methods of an {@link InMemoryNodeManager} over a real socket,
 * reads the InputArguments it decodes as Argument structures, a supplied variable, and has a
 * write vetoed. The server is assembled here from its pieces as OpcUaServer does, with
 * {@link CallServices} registered.
 */
class MiloCallInteropIT {

    private static final String NS = "urn:test:milo:call";
    private static final String APPLICATION_URI = "urn:test:milo:call-server";

    private static final AtomicInteger ticks = new AtomicInteger();
    private static InMemoryNodeManager line;
    private static NodeManagers managers;
    private static SessionManager sessions;
    private static ServiceDispatcher dispatcher;
    private static UaTcpServer transport;
    private static OpcUaClient client;
    private static int ns;

    @BeforeAll
    static void start() throws Exception {
        NamespaceTable namespaces = new NamespaceTable(APPLICATION_URI);
        managers = new NodeManagers(namespaces);
        NodeStore ns0 = Namespace0Loader.load();
        // the client reads the namespace table on connect; ServerObject's work in the real server
        ((VariableNode) ns0.get(dev.opcua.stack.core.types.builtin.NodeId.ns0(NodeIds.Server_NamespaceArray)))
                .setValueSource(() -> dev.opcua.stack.core.types.builtin.DataValue.of(
                        dev.opcua.stack.core.types.builtin.Variant.ofArray(BuiltinType.String, namespaces.toArray())));
        managers.register(new NodeStoreNodeManager(List.of(NamespaceTable.OPC_UA_NAMESPACE), ns0));
        line = InMemoryNodeManager.builder(NS)
                .folder("Line1")
                .object("Line1.Pump")
                .variable("Line1.Pump.Ticks", BuiltinType.Int32,
                        v -> v.valueSupplier(() -> dev.opcua.stack.core.types.builtin.Variant.ofInt32(
                                ticks.incrementAndGet())))
                .variable("Line1.Pump.Setpoint", BuiltinType.Double, v -> v
                        .value(dev.opcua.stack.core.types.builtin.Variant.ofDouble(10))
                        .onWrite((context, value) -> {
                            if (value.doubleValue() < 0) {
                                throw new UaException(StatusCodes.BadOutOfRange, "negative setpoint");
                            }
                        }))
                .method("Line1.Pump.Add", new dev.opcua.stack.core.types.structured.Argument[] {
                    argument("a", BuiltinType.Int32), argument("b", BuiltinType.Int32)},
                        new dev.opcua.stack.core.types.structured.Argument[] {argument("sum", BuiltinType.Int32)},
                        (context, in) -> new dev.opcua.stack.core.types.builtin.Variant[] {
                            dev.opcua.stack.core.types.builtin.Variant.ofInt32(
                                    (Integer) in[0].value() + (Integer) in[1].value())})
                .build();
        managers.register(line);
        managers.startup();
        managers.linkReverseReferences();
        ns = line.namespaceIndex();

        AtomicReference<DiscoveryServices> discovery = new AtomicReference<>();
        sessions = SessionManager.builder()
                .settings(SessionSettings.DEFAULT)
                .identityValidator(IdentityValidator.anonymousOnly())
                .discoveryEndpoints(discovery::get)
                .maxRequestMessageSize(TransportQuotas.DEFAULT.maxMessageSize())
                .build();
        RequestGuard sessionRequired = (channel, header) -> sessions.resolve(channel, header);
        ServiceDispatcher.Builder services = ServiceDispatcher.builder()
                .encodingLimits(TransportQuotas.DEFAULT.encodingLimits())
                .minThreads(2)
                .maxThreads(4)
                .maxQueued(100)
                .registerSync(GetEndpointsRequest.class, (channel, request) -> discovery.get().getEndpoints(request))
                .registerSync(FindServersRequest.class, (channel, request) -> discovery.get().findServers(request));
        sessions.registerWith(services);
        new AttributeServices(managers, sessionRequired, 0, 0).registerWith(services);
        new CallServices(managers, sessionRequired, 10).registerWith(services);
        dispatcher = services.build();
        transport = UaTcpServer.builder()
                .bindAddress("127.0.0.1")
                .port(0)
                .transportQuotas(TransportQuotas.DEFAULT)
                .endpointPaths(List.of("/"))
                .requestListener(dispatcher)
                .build()
                .start();
        String url = "opc.tcp://localhost:" + transport.port() + "/";
        discovery.set(DiscoveryServices.builder()
                .application(APPLICATION_URI, "urn:test:product", "call test server")
                .endpointUrls(List.of(url))
                .userTokenPolicies(List.of(DiscoveryServices.ANONYMOUS))
                .build());
        client = MiloClients.anonymousOverNone(url);
    }

    private static dev.opcua.stack.core.types.structured.Argument argument(String name, BuiltinType type) {
        return new dev.opcua.stack.core.types.structured.Argument(name, type.dataTypeId(), -1, null,
                LocalizedText.NULL);
    }

    @AfterAll
    static void stop() throws Exception {
        if (client != null) {
            client.disconnect();
        }
        if (transport != null) {
            transport.close();
        }
        if (dispatcher != null) {
            dispatcher.close();
        }
        if (sessions != null) {
            sessions.close();
        }
        if (managers != null) {
            managers.shutdown();
        }
    }

    private static NodeId milo(String path) {
        return new NodeId(ns, line.nodeId(path).stringId());
    }

    @Test
    void milo_calls_a_method_and_gets_its_output() throws Exception {
        CallMethodResult result = client.call(List.of(new CallMethodRequest(milo("Line1.Pump"), milo("Line1.Pump.Add"),
                new Variant[] {new Variant(40), new Variant(2)}))).getResults()[0];
        assertThat(result.getStatusCode().isGood()).isTrue();
        assertThat(result.getOutputArguments()).extracting(Variant::getValue).containsExactly(42);
    }

    @Test
    void milo_sees_which_argument_has_the_wrong_type_and_the_other_errors() throws Exception {
        List<CallMethodResult> results = List.of(client.call(List.of(
                new CallMethodRequest(milo("Line1.Pump"), milo("Line1.Pump.Add"),
                        new Variant[] {new Variant(1), new Variant("two")}),
                new CallMethodRequest(milo("Line1.Pump"), milo("Line1.Pump.Add"), new Variant[] {new Variant(1)}),
                new CallMethodRequest(milo("Line1"), milo("Line1.Pump.Add"),
                        new Variant[] {new Variant(1), new Variant(2)}))).getResults());
        assertThat(results.get(0).getStatusCode().getValue())
                .isEqualTo(org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_InvalidArgument);
        assertThat(results.get(0).getInputArgumentResults()).extracting(StatusCode::getValue).containsExactly(
                StatusCode.GOOD.getValue(), org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_TypeMismatch);
        assertThat(results.get(1).getStatusCode().getValue())
                .isEqualTo(org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_ArgumentsMissing);
        assertThat(results.get(2).getStatusCode().getValue())
                .isEqualTo(org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_MethodInvalid);
    }

    @Test
    void milo_decodes_the_input_arguments_property_as_argument_structures() throws Exception {
        DataValue value = client.readValue(0, TimestampsToReturn.Both, milo("Line1.Pump.Add.InputArguments"));
        ExtensionObject[] arguments = (ExtensionObject[]) value.getValue().getValue();
        assertThat(arguments).extracting(e -> ((Argument) e.decode(client.getStaticEncodingContext())).getName())
                .containsExactly("a", "b");
    }

    @Test
    void milo_reads_live_values_and_has_an_out_of_range_write_vetoed() throws Exception {
        int first = (Integer) client.readValue(0, TimestampsToReturn.Both, milo("Line1.Pump.Ticks")).getValue().getValue();
        int second = (Integer) client.readValue(0, TimestampsToReturn.Both, milo("Line1.Pump.Ticks")).getValue().getValue();
        assertThat(second).isGreaterThan(first);
        StatusCode vetoed = client.writeValues(List.of(milo("Line1.Pump.Setpoint")),
                List.of(new DataValue(new Variant(-1.0)))).get(0);
        assertThat(vetoed.getValue()).isEqualTo(org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_OutOfRange);
        StatusCode accepted = client.writeValues(List.of(milo("Line1.Pump.Setpoint")),
                List.of(new DataValue(new Variant(12.5)))).get(0);
        assertThat(accepted.isGood()).isTrue();
        assertThat(client.readValue(0, TimestampsToReturn.Both, milo("Line1.Pump.Setpoint")).getValue().getValue())
                .isEqualTo(12.5);
    }
}
