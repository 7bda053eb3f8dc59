package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.ServerState;
import dev.opcua.stack.core.types.structured.RedundantServerDataType;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The Server object's ServerRedundancy (i=2296) brought to life from {@link RedundancySettings}:
 * <ul>
 *   <li>RedundancySupport (i=3709, Part 5, 6.3.7 and 12.5): the mode, NONE for a stand-alone server;</li>
 *   <li>for Cold, Warm and Hot the object becomes a NonTransparentRedundancyType (Part 5, 6.3.9; namespace 0 types
 *       it ServerRedundancyType, whose instances must say NONE) with ServerUriArray (i=11314: this server's
 *       ServerUri first, then the partners'; "the ServerUriArray shall contain the local Server") and the optional
 *       RedundantServerArray (i=11313, RedundantServerDataType[], Part 5, 6.3.7 and 12.7: ServerId, ServiceLevel,
 *       ServerState, in the order of ServerUriArray). Namespace 0 holds ServerUriArray unlinked and lacks
 *       RedundantServerArray: the first is linked with HasProperty, the second added.</li>
 * </ul>
 * RedundantServerArray lists this server as it is now and each partner as last {@link #reportPartner reported}
 * (by the {@link PartnerMonitor}, or by the application when the monitor is off); a partner never reported is left
 * out.
 *
 * <p>Server.ServerArray (Part 5, 6.3.1) is not changed: it is the server table that ExpandedNodeId.ServerIndex
 * indexes (index 0 the local server), not the redundant set; the set is ServerUriArray.
 */
public final class RedundancyObject {

    static final NodeId SERVER_REDUNDANCY = NodeId.ns0(NodeIds.Server_ServerRedundancy);
    private static final NodeId HAS_PROPERTY = NodeId.ns0(NodeIds.HasProperty);
    private static final NodeId HAS_TYPE_DEFINITION = NodeId.ns0(NodeIds.HasTypeDefinition);
    private static final NodeId PROPERTY_TYPE = NodeId.ns0(NodeIds.PropertyType);
    private static final short READ = 1;

    private final RedundancySettings settings;
    private final String serverUri;
    private final Supplier<ServerState> state;
    private final ServiceLevelCalculator serviceLevel;
    private final Map<String, RedundantServerDataType> partners = new ConcurrentHashMap<>();
    private final DateTime sourceTime = DateTime.now();

    /**
     * @param settings the settings as {@link RedundancySettings#forServer} checked them
     * @param serverUri this server's ApplicationUri
     */
    public RedundancyObject(RedundancySettings settings, String serverUri, Supplier<ServerState> state,
            ServiceLevelCalculator serviceLevel) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.serverUri = Objects.requireNonNull(serverUri, "serverUri");
        this.state = Objects.requireNonNull(state, "state");
        this.serviceLevel = Objects.requireNonNull(serviceLevel, "serviceLevel");
    }

    /** Retypes and fills ServerRedundancy in the namespace-0 {@code store}; call once, before the server starts. */
    public void register(NodeStore store) {
        VariableNode support = variable(store, NodeIds.Server_ServerRedundancy_RedundancySupport);
        Variant supportValue = Variant.ofInt32(settings.mode().redundancySupport().value());
        support.setValueSource(() -> DataValue.of(supportValue, StatusCode.GOOD, sourceTime, null));
        if (!settings.mode().nonTransparent()) {
            return;
        }
        UaNode object = store.get(SERVER_REDUNDANCY);
        retype(store, object, NodeId.ns0(NodeIds.ServerRedundancyType),
                NodeId.ns0(NodeIds.NonTransparentRedundancyType));
        VariableNode uris = variable(store, NodeIds.Server_ServerRedundancy_ServerUriArray);
        link(object, uris);
        Variant urisValue = Variant.ofArray(BuiltinType.String, serverUris().toArray(new String[0]));
        uris.setValueSource(() -> DataValue.of(urisValue, StatusCode.GOOD, sourceTime, null));
        NodeId arrayId = NodeId.ns0(NodeIds.Server_ServerRedundancy_RedundantServerArray);
        if (!(store.get(arrayId) instanceof VariableNode)) {
            VariableNode array = new VariableNode(arrayId, QualifiedName.of(0, "RedundantServerArray"),
                    LocalizedText.of("RedundantServerArray"), null, 0, 0, null,
                    new ValueAttributes(NodeId.ns0(NodeIds.RedundantServerDataType), 1, new long[] {0}), READ, READ,
                    1000, false, READ);
            store.add(array);
            array.addReference(UaReference.forward(HAS_TYPE_DEFINITION, PROPERTY_TYPE));
            link(object, array);
        }
        ((VariableNode) store.get(arrayId)).setValueSource(() -> DataValue.of(
                Variant.ofArray(BuiltinType.ExtensionObject, redundantServers().stream()
                        .map(ExtensionObject::of).toArray(ExtensionObject[]::new)),
                StatusCode.GOOD, DateTime.now(), null));
    }

    /** ServerUriArray: this server's ServerUri, then the partners' in the configured order. */
    public List<String> serverUris() {
        return settings.serverUris(serverUri);
    }

    /** The settings the object publishes. */
    public RedundancySettings settings() {
        return settings;
    }

    /**
     * RedundantServerArray now: this server with its ServiceLevel and ServerState, then the partners reported so
     * far, in the order of ServerUriArray.
     */
    public List<RedundantServerDataType> redundantServers() {
        List<RedundantServerDataType> servers = new ArrayList<>(settings.partners().size() + 1);
        servers.add(new RedundantServerDataType(serverUri, serviceLevel.level(), state.get()));
        for (RedundancyPartner partner : settings.partners()) {
            RedundantServerDataType known = partners.get(partner.serverUri());
            if (known != null) {
                servers.add(known);
            }
        }
        return servers;
    }

    /**
     * Records what a partner last said of itself (its ServiceLevel and ServerState, read from it by whoever
     * watches it), published in RedundantServerArray from now on.
     *
     * @throws IllegalArgumentException when {@code serverUri} is not a configured partner, or the level is not 0..255
     */
    public void reportPartner(String serverUri, int serviceLevel, ServerState serverState) {
        if (settings.partners().stream().noneMatch(p -> p.serverUri().equals(serverUri))) {
            throw new IllegalArgumentException(serverUri + " is not a partner of this server; the partners are "
                    + settings.partners().stream().map(RedundancyPartner::serverUri).toList());
        }
        ServiceLevelStatus level = new ServiceLevelStatus(serviceLevel, null);
        partners.put(serverUri, new RedundantServerDataType(serverUri, (short) level.level(),
                Objects.requireNonNull(serverState, "serverState")));
    }

    /** Forgets a partner's last report (it is gone): it leaves RedundantServerArray. */
    public void forgetPartner(String serverUri) {
        partners.remove(serverUri);
    }

    private static VariableNode variable(NodeStore store, int id) {
        if (!(store.get(NodeId.ns0(id)) instanceof VariableNode node)) {
            throw new IllegalStateException("namespace 0 lacks variable i=" + id + ": regenerate ns0.bin");
        }
        return node;
    }

    /** Replaces the HasTypeDefinition of {@code node}, on both ends. */
    private static void retype(NodeStore store, UaNode node, NodeId from, NodeId to) {
        node.removeReference(UaReference.forward(HAS_TYPE_DEFINITION, from));
        UaNode oldType = store.get(from);
        if (oldType != null) {
            oldType.removeReference(UaReference.inverse(HAS_TYPE_DEFINITION, node.nodeId()));
        }
        node.addReference(UaReference.forward(HAS_TYPE_DEFINITION, to));
        UaNode newType = store.get(to);
        if (newType != null) {
            newType.addReference(UaReference.inverse(HAS_TYPE_DEFINITION, node.nodeId()));
        }
    }

    /** Links {@code property} under {@code owner} with HasProperty, on both ends, unless it is linked already. */
    private static void link(UaNode owner, VariableNode property) {
        UaReference forward = UaReference.forward(HAS_PROPERTY, property.nodeId());
        if (!owner.referenceList().contains(forward)) {
            owner.addReference(forward);
            property.addReference(UaReference.inverse(HAS_PROPERTY, owner.nodeId()));
        }
    }
}
