package dev.opcua.stack.server.namespace0;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.ServerDiagnosticsSummaryDataType;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.services.OperationLimits;
import dev.opcua.stack.server.session.SessionSettings;
import dev.opcua.stack.server.subscriptions.SubscriptionSettings;
import dev.opcua.stack.server.subscriptions.items.MonitoredItemSettings;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Server.ServerCapabilities (Part 5, 6.3.2) and Server.ServerDiagnostics (Part 5, 6.3.3) read through the node managers. */
class ServerCapabilitiesAndDiagnosticsTest {

    private NodeStore ns0;
    private NodeManagers managers;

    @BeforeEach
    void loadNamespace0() {
        ns0 = Namespace0Loader.load();
        managers = new NodeManagers(new NamespaceTable("urn:test"));
        managers.register(new NodeStoreNodeManager(List.of(NamespaceTable.OPC_UA_NAMESPACE), ns0));
    }

    private Variant read(int id) {
        DataValue[] values = managers.read(OperationContext.INTERNAL, new ReadValueId[] {
            new ReadValueId(NodeId.ns0(id), AttributeIds.Value, null, QualifiedName.NULL)}, 0,
                TimestampsToReturn.Neither).join();
        assertThat(values[0].statusCode().isGood()).as("status of i=" + id).isTrue();
        return values[0].value();
    }

    @Test
    void operation_limits_read_as_configured_uint32_values() {
        new ServerCapabilitiesObject(ns0, new OperationLimits(100, 50, 200, 10, 30, 40, 1000), 7);

        assertThat(read(NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerRead))
                .isEqualTo(Variant.ofUInt32(100));
        assertThat(read(NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerWrite))
                .isEqualTo(Variant.ofUInt32(50));
        assertThat(read(NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerBrowse))
                .isEqualTo(Variant.ofUInt32(200));
        assertThat(read(NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerMethodCall))
                .isEqualTo(Variant.ofUInt32(10));
        assertThat(read(NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerTranslateBrowsePathsToNodeIds))
                .isEqualTo(Variant.ofUInt32(30));
        assertThat(read(NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerRegisterNodes))
                .isEqualTo(Variant.ofUInt32(40));
        assertThat(read(NodeIds.Server_ServerCapabilities_OperationLimits_MaxMonitoredItemsPerCall))
                .isEqualTo(Variant.ofUInt32(1000));
        assertThat(read(NodeIds.Server_ServerCapabilities_MaxBrowseContinuationPoints))
                .isEqualTo(Variant.ofUInt16(7));
    }

    @Test
    void no_limits_read_as_zero_and_the_server_names_its_profile_locales_and_sample_rate() {
        new ServerCapabilitiesObject(ns0, OperationLimits.NONE, 10);

        assertThat(read(NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerRead))
                .isEqualTo(Variant.ofUInt32(0));
        Variant profiles = read(NodeIds.Server_ServerCapabilities_ServerProfileArray);
        assertThat(profiles.type()).isEqualTo(BuiltinType.String);
        assertThat((String[]) profiles.value())
                .containsExactly("http://opcfoundation.org/UA-Profile/Server/NanoEmbeddedDevice2017");
        assertThat((String[]) read(NodeIds.Server_ServerCapabilities_LocaleIdArray).value()).containsExactly("en");
        assertThat(read(NodeIds.Server_ServerCapabilities_MinSupportedSampleRate)).isEqualTo(Variant.ofDouble(0));
    }

    @Test
    void capacity_limits_come_from_the_settings_and_the_profile_follows_them() {
        ServerCapabilitiesObject capabilities = new ServerCapabilitiesObject(ns0, OperationLimits.NONE, 10);
        SubscriptionSettings subscriptions = SubscriptionSettings.builder().maxSubscriptions(40)
                .maxSubscriptionsPerSession(4).maxMonitoredItems(5000).maxMonitoredItemsPerSubscription(500).build();
        MonitoredItemSettings items = new MonitoredItemSettings(10, 3_600_000, 100, 1, 1000, 5000);
        TransportQuotas quotas = TransportQuotas.builder().maxArrayLength(1000).maxStringLength(2000)
                .maxByteStringLength(3000).build();
        capabilities.publishCapacity(new SessionSettings(25, Duration.ofSeconds(10), Duration.ofHours(1), 5),
                subscriptions, items, quotas);

        assertThat(read(NodeIds.Server_ServerCapabilities_MaxSessions)).isEqualTo(Variant.ofUInt32(25));
        assertThat(read(NodeIds.Server_ServerCapabilities_MaxSubscriptions)).isEqualTo(Variant.ofUInt32(40));
        assertThat(read(NodeIds.Server_ServerCapabilities_MaxSubscriptionsPerSession)).isEqualTo(Variant.ofUInt32(4));
        assertThat(read(NodeIds.Server_ServerCapabilities_MaxMonitoredItems)).isEqualTo(Variant.ofUInt32(5000));
        assertThat(read(NodeIds.Server_ServerCapabilities_MaxMonitoredItemsPerSubscription))
                .isEqualTo(Variant.ofUInt32(500));
        assertThat(read(NodeIds.Server_ServerCapabilities_MaxMonitoredItemsQueueSize))
                .as("the larger of the data-change and the event queue").isEqualTo(Variant.ofUInt32(5000));
        assertThat(read(NodeIds.Server_ServerCapabilities_MaxArrayLength)).isEqualTo(Variant.ofUInt32(1000));
        assertThat(read(NodeIds.Server_ServerCapabilities_MaxStringLength)).isEqualTo(Variant.ofUInt32(2000));
        assertThat(read(NodeIds.Server_ServerCapabilities_MaxByteStringLength)).isEqualTo(Variant.ofUInt32(3000));
        assertThat((String[]) read(NodeIds.Server_ServerCapabilities_ServerProfileArray).value())
                .containsExactly(ServerCapabilitiesObject.MICRO_EMBEDDED_DEVICE_2017);

        // one session at a time is not "Session Minimum 2 Parallel": Nano is all the server can claim
        capabilities.publishCapacity(new SessionSettings(1, Duration.ofSeconds(10), Duration.ofHours(1), 5),
                subscriptions, items, quotas);
        assertThat((String[]) read(NodeIds.Server_ServerCapabilities_ServerProfileArray).value())
                .containsExactly(ServerCapabilitiesObject.NANO_EMBEDDED_DEVICE_2017);
    }

    @Test
    void diagnostics_summary_and_its_components_follow_the_source_and_start_at_zero() {
        ServerDiagnosticsObject diagnostics = new ServerDiagnosticsObject(ns0);
        assertThat(read(NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_CurrentSessionCount))
                .isEqualTo(Variant.ofUInt32(0));
        assertThat(read(NodeIds.Server_ServerDiagnostics_EnabledFlag)).isEqualTo(Variant.ofBoolean(true));

        AtomicLong sessions = new AtomicLong(3);
        diagnostics.setSource(new ServerDiagnosticsSource() {
            @Override
            public long currentSessionCount() {
                return sessions.get();
            }

            @Override
            public long cumulatedSessionCount() {
                return 11;
            }

            @Override
            public long securityRejectedSessionCount() {
                return 2;
            }

            @Override
            public long rejectedSessionCount() {
                return 5;
            }

            @Override
            public long sessionTimeoutCount() {
                return 1;
            }

            @Override
            public long sessionAbortCount() {
                return 4;
            }

            @Override
            public long rejectedRequestsCount() {
                return 1L << 40; // beyond UInt32: saturates
            }
        });

        assertThat(read(NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_CurrentSessionCount))
                .isEqualTo(Variant.ofUInt32(3));
        sessions.set(4);
        assertThat(read(NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_CurrentSessionCount))
                .isEqualTo(Variant.ofUInt32(4));
        assertThat(read(NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_CumulatedSessionCount))
                .isEqualTo(Variant.ofUInt32(11));
        assertThat(read(NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_SecurityRejectedSessionCount))
                .isEqualTo(Variant.ofUInt32(2));
        assertThat(read(NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_RejectedSessionCount))
                .isEqualTo(Variant.ofUInt32(5));
        assertThat(read(NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_SessionTimeoutCount))
                .isEqualTo(Variant.ofUInt32(1));
        assertThat(read(NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_SessionAbortCount))
                .isEqualTo(Variant.ofUInt32(4));
        assertThat(read(NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_CurrentSubscriptionCount))
                .isEqualTo(Variant.ofUInt32(0));
        assertThat(read(NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_RejectedRequestsCount))
                .isEqualTo(Variant.ofUInt32(0xFFFF_FFFFL));

        Variant summary = read(NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary);
        assertThat(summary.type()).isEqualTo(BuiltinType.ExtensionObject);
        ServerDiagnosticsSummaryDataType s = ((ExtensionObject) summary.value())
                .decoded(ServerDiagnosticsSummaryDataType.class);
        assertThat(s.currentSessionCount()).isEqualTo(4);
        assertThat(s.cumulatedSessionCount()).isEqualTo(11);
        assertThat(s.rejectedSessionCount()).isEqualTo(5);
        assertThat(s.serverViewCount()).isZero();
        assertThat(s.rejectedRequestsCount()).isEqualTo(0xFFFF_FFFFL);
    }
}
