package dev.opcua.cli.nodeset;

import dev.opcua.cli.Output;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.IdType;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.BrowseDirection;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import dev.opcua.stack.core.types.structured.BrowseDescription;
import dev.opcua.stack.core.types.structured.BrowseResult;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.ReferenceDescription;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Finds the nodes of one namespace by browsing the hierarchy from the Root folder (Part 5, 8.2), then reads their
 * attributes (Read, Part 4, 5.10.2) and references (Browse in both directions, 5.9.2). Namespace-0 nodes are
 * followed only where another namespace's nodes hang: the standard folders and the type hierarchies (a type of
 * the namespace is a subtype of a standard one); the Server object is not followed.
 */
final class NamespaceReader {

    /** The attributes a NodeSet2 element can carry (Part 6, F.3 to F.10). */
    static final int[] ATTRIBUTES = {AttributeIds.NodeClass, AttributeIds.BrowseName, AttributeIds.DisplayName,
        AttributeIds.Description, AttributeIds.IsAbstract, AttributeIds.Symmetric, AttributeIds.InverseName,
        AttributeIds.ContainsNoLoops, AttributeIds.EventNotifier, AttributeIds.Value, AttributeIds.DataType,
        AttributeIds.ValueRank, AttributeIds.ArrayDimensions, AttributeIds.AccessLevel,
        AttributeIds.MinimumSamplingInterval, AttributeIds.Historizing, AttributeIds.Executable};

    private static final int BATCH = 100;
    private static final Set<NodeClass> TYPES = Set.of(NodeClass.ObjectType, NodeClass.VariableType,
            NodeClass.DataType, NodeClass.ReferenceType);
    private static final Set<Integer> STANDARD_FOLDERS = Set.of(NodeIds.RootFolder, NodeIds.ObjectsFolder,
            NodeIds.TypesFolder, NodeIds.ViewsFolder, NodeIds.ObjectTypesFolder, NodeIds.VariableTypesFolder,
            NodeIds.DataTypesFolder, NodeIds.ReferenceTypesFolder, NodeIds.EventTypesFolder);

    private final OpcUaClient client;
    private final Output output;
    private final long timeoutMillis;

    NamespaceReader(OpcUaClient client, Output output, long timeoutMillis) {
        this.client = client;
        this.output = output;
        this.timeoutMillis = timeoutMillis;
    }

    /** The namespace's nodes, in NodeId text order, with attributes and references. */
    List<BrowsedNode> read(int namespaceIndex) throws Exception {
        List<NodeId> found = find(namespaceIndex);
        found.sort((a, b) -> a.toString().compareTo(b.toString()));
        List<BrowsedNode> nodes = new ArrayList<>();
        for (int from = 0; from < found.size(); from += BATCH) {
            List<NodeId> batch = found.subList(from, Math.min(found.size(), from + BATCH));
            nodes.addAll(describe(batch));
            output.progress("read " + nodes.size() + " of " + found.size() + " nodes");
        }
        return nodes;
    }

    private List<NodeId> find(int namespaceIndex) throws Exception {
        List<NodeId> found = new ArrayList<>();
        Set<NodeId> seen = new HashSet<>();
        Deque<NodeId> toBrowse = new ArrayDeque<>();
        NodeId root = NodeId.ns0(NodeIds.RootFolder);
        toBrowse.add(root);
        seen.add(root);
        long browsed = 0;
        while (!toBrowse.isEmpty()) {
            List<NodeId> batch = new ArrayList<>();
            while (!toBrowse.isEmpty() && batch.size() < BATCH) {
                batch.add(toBrowse.poll());
            }
            List<BrowseDescription> descriptions = batch.stream().map(OpcUaClient::hierarchical).toList();
            List<BrowseResult> results = client.browse(descriptions, 0).get(timeoutMillis, TimeUnit.MILLISECONDS);
            browsed += batch.size();
            for (BrowseResult result : results) {
                if (result.statusCode().isBad() || result.references() == null) {
                    continue;
                }
                for (ReferenceDescription reference : result.references()) {
                    NodeId child = local(reference.nodeId());
                    if (child == null || !seen.add(child)) {
                        continue;
                    }
                    if (child.namespaceIndex() == namespaceIndex) {
                        found.add(child);
                        toBrowse.add(child);
                    } else if (child.namespaceIndex() == 0 && follow(child, reference.nodeClass())) {
                        toBrowse.add(child);
                    }
                }
            }
            output.progress("browsed " + browsed + " nodes, " + found.size() + " of the namespace");
        }
        return found;
    }

    private static boolean follow(NodeId standard, NodeClass nodeClass) {
        return TYPES.contains(nodeClass) || standard.idType() == IdType.Numeric
                && STANDARD_FOLDERS.contains((int) standard.numericId());
    }

    private NodeId local(ExpandedNodeId id) {
        if (!id.isLocal()) {
            return null;
        }
        try {
            return client.namespaces().toNodeId(id);
        } catch (UaException e) {
            return null;
        }
    }

    private List<BrowsedNode> describe(List<NodeId> batch) throws Exception {
        List<ReadValueId> reads = new ArrayList<>();
        List<BrowseDescription> browses = new ArrayList<>();
        for (NodeId id : batch) {
            for (int attribute : ATTRIBUTES) {
                reads.add(new ReadValueId(id, attribute, null, QualifiedName.NULL));
            }
            browses.add(new BrowseDescription(id, BrowseDirection.Both, NodeId.ns0(NodeIds.References), true, 0,
                    0x3F));
        }
        List<DataValue> values = client.read(reads).get(timeoutMillis, TimeUnit.MILLISECONDS);
        List<BrowseResult> references = client.browse(browses, 0).get(timeoutMillis, TimeUnit.MILLISECONDS);
        List<BrowsedNode> nodes = new ArrayList<>();
        for (int n = 0; n < batch.size(); n++) {
            Map<Integer, Variant> attributes = new LinkedHashMap<>();
            for (int a = 0; a < ATTRIBUTES.length; a++) {
                DataValue value = values.get(n * ATTRIBUTES.length + a);
                if (value.statusCode().isGood() && value.value() != null && !value.value().isNull()) {
                    attributes.put(ATTRIBUTES[a], value.value());
                }
            }
            Variant nodeClass = attributes.get(AttributeIds.NodeClass);
            if (nodeClass == null || !(nodeClass.value() instanceof Integer classValue)) {
                continue; // gone since it was browsed, or not readable
            }
            List<BrowsedNode.Reference> refs = new ArrayList<>();
            BrowseResult result = references.get(n);
            if (result.statusCode().isGood() && result.references() != null) {
                for (ReferenceDescription r : result.references()) {
                    refs.add(new BrowsedNode.Reference(r.referenceTypeId(), r.isForward(), r.nodeId()));
                }
            }
            nodes.add(new BrowsedNode(batch.get(n), NodeClass.fromValue(classValue), attributes, refs));
        }
        return nodes;
    }
}
