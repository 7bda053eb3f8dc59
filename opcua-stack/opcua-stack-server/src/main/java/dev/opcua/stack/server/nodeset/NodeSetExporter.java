package dev.opcua.stack.server.nodeset;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeManager;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import javax.xml.stream.XMLStreamException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exports one namespace of a running server as a NodeSet2 document (Part 6, Annex F), which
 * {@link NodeSetImporter} (or any other stack) imports back to the same nodes.
 *
 * <p>The document holds: the NamespaceUris it refers to, the exported one at index 1; its Model with
 * the version, publication date and RequiredModels the server knows (those of the imported file, or,
 * for a namespace the application built, namespace 0 and the loaded models it refers to); Aliases for
 * the namespace-0 DataTypes and ReferenceTypes it uses; then every node of the namespace that its
 * in-memory node manager ({@link NodeStoreNodeManager}) holds, in NodeId order, with its attributes,
 * references and Value or DataTypeDefinition. Values are written in the XML encoding of Part 6, 5.3;
 * one that has none here (a matrix, a structure of unknown layout) is left out with a warning, as is
 * a reference to another server.
 *
 * <p>Output is deterministic: the same address space gives the same bytes, so exports can be
 * committed and compared.
 */
public final class NodeSetExporter {

    private static final Logger log = LoggerFactory.getLogger(NodeSetExporter.class);

    private final NodeManagers nodeManagers;
    private final ModelRegistry models;

    /**
     * @param nodeManagers the server's node managers, with its namespace table
     * @param models the server's models, for the Model element and the structures' layouts
     */
    public NodeSetExporter(NodeManagers nodeManagers, ModelRegistry models) {
        this.nodeManagers = Objects.requireNonNull(nodeManagers, "nodeManagers");
        this.models = Objects.requireNonNull(models, "models");
    }

    /**
     * Writes the namespace's nodes to {@code out} as UTF-8 XML; {@code out} is left open.
     *
     * @throws NamespaceNotExportableException when the server has no such namespace, or no in-memory
     *     node manager holds it
     * @throws IOException when writing fails
     */
    public void export(String namespaceUri, OutputStream out) throws IOException {
        export(namespaceUri, node -> true, out);
    }

    /**
     * Writes the nodes of the namespace that {@code include} accepts, as {@link #export(String, OutputStream)}
     * writes all of them: the nodes added at run time, say, which their references to the other nodes of the
     * namespace link back into it when the file is read again.
     *
     * @throws NamespaceNotExportableException when the server has no such namespace, or no in-memory
     *     node manager holds it
     * @throws IOException when writing fails
     */
    public void export(String namespaceUri, Predicate<UaNode> include, OutputStream out) throws IOException {
        Objects.requireNonNull(out, "out");
        long start = System.nanoTime();
        NamespaceTable namespaces = nodeManagers.namespaces();
        int index = namespaceUri == null ? -1 : namespaces.indexOf(namespaceUri);
        if (index < 0) {
            throw new NamespaceNotExportableException("namespace " + namespaceUri
                    + " is not in the server's namespace table " + List.of(namespaces.toArray()), namespaceUri);
        }
        NodeManager owner = nodeManagers.managerOf(NodeId.numeric(index, 0));
        if (!(owner instanceof NodeStoreNodeManager manager)) {
            throw new NamespaceNotExportableException("namespace " + namespaceUri
                    + " has no nodes in memory to export: " + (owner == null ? "no node manager owns it"
                    : "its node manager " + owner + " serves them from elsewhere"), namespaceUri);
        }
        List<UaNode> nodes = new ArrayList<>();
        for (UaNode node : manager.store().nodes()) {
            if (node.nodeId().namespaceIndex() == index && include.test(node)) {
                nodes.add(node);
            }
        }
        nodes.sort((a, b) -> ExportScope.compare(a.nodeId(), b.nodeId()));
        ExportScope scope = new ExportScope(namespaces, index, this::find, models);
        NodeSetWriter writer = new NodeSetWriter(scope);
        try {
            writer.write(nodes, OutputStream.nullOutputStream());
            scope.freeze();
            writer.write(nodes, out); // XMLStreamWriter.close leaves the stream open
        } catch (XMLStreamException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException("NodeSet export of " + namespaceUri + " failed: " + e.getMessage(), e);
        }
        if (scope.warnings() > 0) {
            log.warn("NodeSet export of {}: {} values or references left out (see the warnings above)", namespaceUri,
                    scope.warnings());
        }
        log.info("Exported {}: {} nodes in {} ms", namespaceUri, nodes.size(), (System.nanoTime() - start) / 1_000_000);
    }

    /** A node of any in-memory node manager, or null. */
    private UaNode find(NodeId nodeId) {
        return nodeManagers.managerOf(nodeId) instanceof NodeStoreNodeManager manager
                ? manager.store().get(nodeId) : null;
    }
}
