package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.ServerState;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a partner with our own client: one anonymous session over SecurityPolicy None that the client keeps
 * open and re-opens after a loss (reconnecting with backoff from 1 s up to the monitor interval, or 30 s).
 * Each {@link #read()} is one Read of the Server object's ServerArray, NamespaceArray, ServiceLevel,
 * ServerStatus.State (Part 5, 6.3.1) and the partner's {@link AddressSpaceFingerprint#NODE}. The client's
 * threads are named {@code opcua-partner-<n>-...}; closed with the monitor.
 */
public final class ClientPartnerReader implements PartnerReader {

    private static final Logger log = LoggerFactory.getLogger(ClientPartnerReader.class);
    private static final List<NodeId> NODES = List.of(NodeId.ns0(NodeIds.Server_ServerArray),
            NodeId.ns0(NodeIds.Server_NamespaceArray), NodeId.ns0(NodeIds.Server_ServiceLevel),
            NodeId.ns0(NodeIds.Server_ServerStatus_State), AddressSpaceFingerprint.NODE);

    private final RedundancyPartner partner;
    private final ClientResources resources;
    private final OpcUaClient client;

    /**
     * @param ownUri this server's ApplicationUri; the client's ApplicationUri is derived from it
     * @param index the partner's position, for thread names
     */
    public ClientPartnerReader(RedundancyPartner partner, String ownUri, int index, PartnerMonitorSettings settings) {
        this.partner = partner;
        this.resources = ClientResources.builder().threadNamePrefix("opcua-partner-" + index).ioThreads(1)
                .callbackThreads(1).build();
        Duration maxDelay = settings.interval().compareTo(Duration.ofSeconds(30)) < 0 ? Duration.ofSeconds(30)
                : settings.interval();
        this.client = OpcUaClient.create(OpcUaClientConfig.builder(partner.endpointUrl())
                .applicationUri(ownUri + ":partner-monitor")
                .applicationName("partner monitor of " + ownUri)
                .sessionName("partner monitor of " + ownUri)
                .security(SecurityPolicy.None, MessageSecurityMode.None)
                .requestTimeout(settings.requestTimeout())
                .keepAliveInterval(settings.interval().compareTo(Duration.ofSeconds(5)) < 0 ? Duration.ofSeconds(5)
                        : settings.interval())
                .reconnectDelays(Duration.ofSeconds(1), maxDelay)
                .keepTryingToConnect(true)
                .resources(resources)
                .build());
        client.connect().whenComplete((ok, failure) -> {
            if (failure != null) {
                log.debug("partner monitor: first connection to {} failed: {}", partner.endpointUrl(), failure.toString());
            }
        });
    }

    @Override
    public CompletableFuture<PartnerFacts> read() {
        if (client.state() != ClientState.CONNECTED) {
            return CompletableFuture.failedFuture(new UaException(StatusCodes.BadNotConnected,
                    "no session with " + partner.endpointUrl() + " (client " + client.state() + ")"));
        }
        return client.readValues(NODES).thenApply(ClientPartnerReader::facts);
    }

    private static PartnerFacts facts(List<DataValue> values) {
        String[] servers = strings(values.get(0));
        String[] namespaces = strings(values.get(1));
        Object level = values.get(2).value().value();
        Object state = values.get(3).value().value();
        DataValue fingerprint = values.get(4);
        return new PartnerFacts(servers.length == 0 ? null : servers[0], Arrays.asList(namespaces),
                level instanceof Number n ? n.intValue() : 0,
                state instanceof Number n ? ServerState.fromValue(n.intValue()) : ServerState.Unknown,
                fingerprint.statusCode().isGood() && fingerprint.value().value() instanceof String s ? s : null);
    }

    private static String[] strings(DataValue value) {
        return value.statusCode().isGood() && value.value().value() instanceof String[] array ? array : new String[0];
    }

    @Override
    public void close() {
        try {
            client.close();
        } finally {
            resources.close();
        }
    }

    @Override
    public String toString() {
        return "ClientPartnerReader[" + partner.serverUri() + " at " + partner.endpointUrl() + "]";
    }
}
