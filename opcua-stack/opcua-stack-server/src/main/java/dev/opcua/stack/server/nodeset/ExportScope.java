package dev.opcua.stack.server.nodeset;

import dev.opcua.stack.core.encoding.generic.StructureLayout;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.server.addressspace.DataTypeNode;
import dev.opcua.stack.server.addressspace.ReferenceTypeNode;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodeset.ImportedModel.ModelVersion;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * What one export knows beyond the nodes it writes: the file's namespace table (Part 6, F.1:
 * NamespaceUris, the exported namespace first at index 1, then those its nodes and values refer to in
 * the server's order), the Aliases for the namespace-0 DataTypes and ReferenceTypes it uses (named by
 * their BrowseName), and the address space around it.
 *
 * <p>An export runs twice over the same nodes: the first pass, with {@link #collecting()} true,
 * writes nowhere and records every namespace and alias the nodes use; {@link #freeze()} then numbers
 * them; the second pass writes the file.
 */
final class ExportScope {

    /** A ns0 BrowseName that starts like a namespace prefix ("1:x") is written with an explicit "0:". */
    private static final Pattern PREFIX_LIKE = Pattern.compile("^\\d+:.*");

    private final NamespaceTable namespaces;
    private final int exported;
    private final Function<NodeId, UaNode> lookup;
    private final DataTypes dataTypes;
    private final ModelRegistry registry;
    /** The load order of the models: namespace 0 first. */
    private final Map<String, Integer> modelOrder = new HashMap<>();
    private final TreeSet<Integer> used = new TreeSet<>();
    private final TreeMap<NodeId, String> usedAliases = new TreeMap<>(ExportScope::compare);
    private Map<Integer, Integer> fileIndexes;
    private Map<NodeId, String> aliases;
    private int warnings;

    /**
     * @param exported the server's index of the exported namespace
     * @param lookup any node of the server's in-memory node managers, or null
     */
    ExportScope(NamespaceTable namespaces, int exported, Function<NodeId, UaNode> lookup, ModelRegistry registry) {
        this.namespaces = namespaces;
        this.exported = exported;
        this.lookup = lookup;
        this.dataTypes = new DataTypes(lookup);
        this.registry = registry;
        for (ModelVersion model : registry.models()) {
            modelOrder.putIfAbsent(model.uri(), modelOrder.size());
        }
    }

    /** Whether this is the first pass, which records what the nodes use and writes nowhere. */
    boolean collecting() {
        return fileIndexes == null;
    }

    /** Numbers the namespaces and names the aliases the first pass recorded. */
    void freeze() {
        Map<Integer, Integer> indexes = new HashMap<>();
        indexes.put(0, 0); // namespace 0 is never listed; exporting it, the file lists only the others it uses
        indexes.putIfAbsent(exported, 1);
        for (int serverIndex : used) {
            indexes.putIfAbsent(serverIndex, indexes.size());
        }
        fileIndexes = indexes;
        Map<NodeId, String> named = new LinkedHashMap<>();
        Map<String, NodeId> byName = new HashMap<>();
        usedAliases.forEach((id, name) -> {
            if (byName.putIfAbsent(name, id) == null) {
                named.put(id, name);
            }
        });
        aliases = named;
    }

    int exportedIndex() {
        return exported;
    }

    String exportedUri() {
        return namespaces.uri(exported);
    }

    /** The file's NamespaceUris: index 1 first (the exported namespace unless that is namespace 0). */
    List<String> namespaceUris() {
        String[] uris = new String[fileIndexes.size() - 1];
        fileIndexes.forEach((server, file) -> {
            if (file > 0) {
                uris[file - 1] = namespaces.uri(server);
            }
        });
        return List.of(uris);
    }

    /** The Aliases: name to NodeId, in NodeId order. */
    Map<String, NodeId> aliases() {
        Map<String, NodeId> result = new LinkedHashMap<>();
        aliases.forEach((id, name) -> result.put(name, id));
        return result;
    }

    /** A namespace index of the server as the file's. */
    int fileIndex(int serverIndex) {
        if (serverIndex == 0) {
            return 0;
        }
        if (collecting()) {
            if (serverIndex != exported) {
                used.add(serverIndex);
            }
            return serverIndex;
        }
        Integer index = fileIndexes.get(serverIndex);
        if (index == null) {
            throw new IllegalStateException("namespace " + serverIndex + " was not seen by the first pass");
        }
        return index;
    }

    /** A NodeId in the file's text form (Part 6, 5.3.1.10). */
    String nodeId(NodeId id) {
        return id.withNamespaceIndex(fileIndex(id.namespaceIndex())).toString();
    }

    /** A DataType or ReferenceType as an Alias when it is of namespace 0, else as a NodeId. */
    String typeReference(NodeId type) {
        if (type.namespaceIndex() != 0) {
            return nodeId(type);
        }
        if (collecting()) {
            UaNode node = lookup.apply(type);
            if (node instanceof DataTypeNode || node instanceof ReferenceTypeNode) {
                usedAliases.put(type, node.browseName().name());
            }
            return type.toString();
        }
        String alias = aliases.get(type);
        return alias != null ? alias : type.toString();
    }

    /** A BrowseName as the file writes it: "1:Name", or "Name" in namespace 0 (Part 6, F.4). */
    String qualifiedName(QualifiedName name) {
        String text = name.name() == null ? "" : name.name();
        int ns = fileIndex(name.namespaceIndex());
        if (ns != 0) {
            return ns + ":" + text;
        }
        return PREFIX_LIKE.matcher(text).matches() ? "0:" + text : text;
    }

    /**
     * Whether a reference of an exported node belongs in the file. The server gives every reference
     * between two namespaces to the nodes at both ends (so that either can be browsed), but a NodeSet2
     * file holds only what its model declares, and a model refers to namespace 0 and the models loaded
     * before it, never to those that build on it. So a reference to a namespace loaded later is left
     * out: it is the reverse of one that namespace's file declares. A namespace the application built
     * counts as loaded after every model.
     */
    boolean keeps(UaReference reference) {
        int target = reference.targetId().nodeId().namespaceIndex();
        return target == exported || loadOrder(target) <= loadOrder(exported);
    }

    private int loadOrder(int serverIndex) {
        Integer order = modelOrder.get(namespaces.uri(serverIndex));
        return order == null ? Integer.MAX_VALUE : order;
    }

    /** A namespace URI of the server, or null. */
    String uri(int serverIndex) {
        return namespaces.uri(serverIndex);
    }

    UaNode find(NodeId id) {
        return lookup.apply(id);
    }

    DataTypes dataTypes() {
        return dataTypes;
    }

    ModelRegistry registry() {
        return registry;
    }

    /** The layout of a structure DataType: a model's, or one of the namespace-0 value structures. */
    StructureLayout layoutOfType(NodeId dataType) {
        return registry.layoutOfType(dataType);
    }

    StructureLayout layoutOfEncoding(NodeId encodingId) {
        StructureLayout layout = registry.layoutOfEncoding(encodingId);
        if (layout != null) {
            return layout;
        }
        NodeId dataType = dataTypes.dataTypeOf(encodingId);
        return dataType == null ? null : registry.layoutOfType(dataType);
    }

    /** Counts a value or reference left out; the caller logs the first few. */
    int warn() {
        return collecting() ? 0 : ++warnings;
    }

    int warnings() {
        return warnings;
    }

    /** NodeIds in a stable order: by namespace, kind of identifier, then identifier. */
    static int compare(NodeId a, NodeId b) {
        int c = Integer.compare(a.namespaceIndex(), b.namespaceIndex());
        if (c == 0) {
            c = a.idType().compareTo(b.idType());
        }
        if (c == 0) {
            c = switch (a.idType()) {
                case Numeric -> Long.compare(a.numericId(), b.numericId());
                default -> a.toString().compareTo(b.toString());
            };
        }
        return c;
    }
}
