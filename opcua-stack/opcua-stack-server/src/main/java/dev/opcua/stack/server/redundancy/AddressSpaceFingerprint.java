package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeManager;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Supplier;

/**
 * A short digest of the part of the address space that the servers of a redundant set must share, so that a
 * partner can tell cheaply whether it serves the same one. Part 4, 6.6.2.2 requires the servers of a
 * RedundantServerSet to have an identical AddressSpace (identical NodeIds, browse paths and structure); only
 * the local server namespace (index 1) may differ. The specification defines no way to compare them: this
 * fingerprint is ours.
 *
 * <p>What it covers: the NamespaceArray from index 2 on, in order, and for every node of a namespace from index 2
 * on that a node-store manager holds ({@link NodeStoreNodeManager}: in-memory, annotated, imported NodeSets) its
 * NodeId, BrowseName and NodeClass, and for a variable its DataType and ValueRank; values, references and
 * attributes that change at run time are left out. Nodes of other managers are not enumerable: only their
 * namespace URIs count. SHA-256 over the sorted lines, written {@code sha256:<hex>}.
 *
 * <p>Computed on first use and again after {@link #invalidate()} (the server calls it on every model change, e.g.
 * NodeManagement's AddNodes and DeleteNodes). Thread-safe.
 */
public final class AddressSpaceFingerprint {

    /**
     * Where a server publishes its fingerprint (a String): in its local namespace, index 1 (Part 4, 6.6.2.2: the
     * only namespace whose nodes may differ between the servers of a set).
     */
    public static final NodeId NODE = NodeId.string(1, "ServerRedundancy.AddressSpaceFingerprint");

    private final NamespaceTable namespaces;
    private final Supplier<List<NodeManager>> managers;
    private volatile String value;

    public AddressSpaceFingerprint(NamespaceTable namespaces, Supplier<List<NodeManager>> managers) {
        this.namespaces = namespaces;
        this.managers = managers;
    }

    /** The fingerprint of the address space now. */
    public String value() {
        String current = value;
        if (current == null) {
            current = compute(namespaces.toArray(), managers.get());
            value = current;
        }
        return current;
    }

    /** Forgets the fingerprint: the next {@link #value()} computes it again. */
    public void invalidate() {
        value = null;
    }

    /** The fingerprint of {@code namespaceArray} and the nodes of {@code managers} (see the class comment). */
    public static String compute(String[] namespaceArray, List<NodeManager> managers) {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        for (int i = 2; i < namespaceArray.length; i++) {
            digest.update(("ns " + i + " " + namespaceArray[i] + "\n").getBytes(StandardCharsets.UTF_8));
        }
        List<String> lines = new ArrayList<>();
        for (NodeManager manager : managers) {
            if (manager instanceof NodeStoreNodeManager store) {
                for (UaNode node : store.store().nodes()) {
                    if (node.nodeId().namespaceIndex() >= 2 && !node.isRemoved()) {
                        lines.add(line(node));
                    }
                }
            }
        }
        Collections.sort(lines);
        for (String line : lines) {
            digest.update(line.getBytes(StandardCharsets.UTF_8));
        }
        return "sha256:" + HexFormat.of().formatHex(digest.digest());
    }

    private static String line(UaNode node) {
        StringBuilder line = new StringBuilder(96).append(node.nodeId()).append('|').append(node.browseName())
                .append('|').append(node.nodeClass());
        if (node instanceof VariableNode variable) {
            line.append('|').append(variable.valueAttributes().dataType())
                    .append('|').append(variable.valueAttributes().valueRank());
        }
        return line.append('\n').toString();
    }
}
