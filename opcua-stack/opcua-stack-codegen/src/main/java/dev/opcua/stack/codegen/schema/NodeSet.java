package dev.opcua.stack.codegen.schema;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The content of a UANodeSet file (Part 6, Annex F) as far as the address space needs it.
 *
 * @param namespaceUris the NamespaceUris table (empty for namespace 0, whose index is implicit)
 * @param aliases the Aliases table, alias to NodeId, in file order
 * @param nodes every node in file order
 * @param droppedValues one line per {@code <Value>} that could not be converted and was left out
 * @param skippedDefinitions how many DataType {@code <Definition>} elements were not read
 */
public record NodeSet(
        List<String> namespaceUris,
        Map<String, NodeId> aliases,
        List<NodeDef> nodes,
        List<String> droppedValues,
        int skippedDefinitions) {

    public NodeSet {
        namespaceUris = List.copyOf(namespaceUris);
        aliases = Collections.unmodifiableMap(new LinkedHashMap<>(aliases));
        nodes = List.copyOf(nodes);
        droppedValues = List.copyOf(droppedValues);
    }

    /** How many nodes are of the given class. */
    public long count(NodeClass nodeClass) {
        return nodes.stream().filter(n -> n.nodeClass() == nodeClass).count();
    }

    /** How many references the nodes list, as written (each direction a file lists counts once). */
    public long referenceCount() {
        return nodes.stream().mapToLong(n -> n.references().size()).sum();
    }

    /** How many variables and variable types have a value. */
    public long valueCount() {
        return nodes.stream().filter(n -> n.value() != null).count();
    }
}
