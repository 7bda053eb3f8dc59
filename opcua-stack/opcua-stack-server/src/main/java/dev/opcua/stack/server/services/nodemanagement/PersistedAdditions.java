package dev.opcua.stack.server.services.nodemanagement;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodeset.ImportedModel;
import dev.opcua.stack.server.nodeset.ModelRegistry;
import dev.opcua.stack.server.nodeset.NodeSetException;
import dev.opcua.stack.server.nodeset.NodeSetExporter;
import dev.opcua.stack.server.nodeset.NodeSetImporter;
import dev.opcua.stack.server.nodeset.NodeSetSource;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the nodes added through the NodeManagement services across restarts: after each request that
 * changed them, the added nodes of each namespace concerned that still exist are written as one NodeSet2
 * file (Part 6, Annex F) in the directory, {@code <namespace URI with / : and other signs as _>.NodeSet2.xml},
 * written beside and moved into place so a crash leaves the old or the new file, never half of one; at
 * start the files are read back into the stores of their namespaces and the references their nodes hold
 * to other nodes (the parent's HasComponent) are linked back from those nodes.
 *
 * <p>What is kept: the added nodes (with the children their types gave them), their attributes, values
 * and references. Not kept: references added between nodes that were not added, nodes of the application
 * deleted through the services (the application declares them again at start), values written later.
 */
final class PersistedAdditions {

    private static final Logger log = LoggerFactory.getLogger(PersistedAdditions.class);
    private static final String SUFFIX = ".NodeSet2.xml";

    private final Path directory;
    private final NodeManagers managers;
    private final ModelRegistry models;
    private final NodeSetExporter exporter;
    /** The NodeIds of the nodes added and not deleted since; guarded by the services' lock. */
    private final Set<NodeId> added = new HashSet<>();

    PersistedAdditions(Path directory, NodeManagers managers, ModelRegistry models) {
        this.directory = directory;
        this.managers = managers;
        this.models = models;
        this.exporter = new NodeSetExporter(managers, models);
    }

    /**
     * Reads the files of the directory (created when missing) into the stores of their namespaces.
     *
     * @throws NodeSetException naming the file when one cannot be read, or holds nodes of a namespace that
     *     takes no changes
     * @throws UncheckedIOException when the directory cannot be created or listed
     */
    void restore(EditableNodes nodes) {
        List<Path> files = new ArrayList<>();
        try {
            Files.createDirectories(directory);
            try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory, "*" + SUFFIX)) {
                stream.forEach(files::add);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("node management: the directory " + directory + " cannot be read", e);
        }
        files.sort(null);
        for (Path file : files) {
            ImportedModel model = NodeSetImporter.readAdditions(NodeSetSource.of(file), managers.namespaces(),
                    nodes::find, models);
            List<UaNode> restored = new ArrayList<>();
            for (UaNode node : model.store().nodes()) {
                int editable = nodes.editable(node.nodeId());
                if (editable != StatusCodes.Good) {
                    throw new NodeSetException(file + ": node " + node.nodeId() + " is in a namespace that takes no"
                            + " node management changes; remove the file or enable the namespace");
                }
                NodeStore store = nodes.store(node.nodeId());
                if (store.get(node.nodeId()) != null) {
                    log.warn("{}: {} exists already (the application declares it now); the saved one is dropped",
                            file, node.nodeId());
                    continue;
                }
                store.add(node);
                restored.add(node);
                added.add(node.nodeId());
            }
            for (UaNode node : restored) {
                for (UaReference reference : node.references()) {
                    UaNode other = reference.targetId().isLocal() ? nodes.find(reference.targetId().nodeId()) : null;
                    if (other != null && !added.contains(other.nodeId())) {
                        other.addReference(reference.reversed(node.nodeId()));
                    }
                }
            }
            log.info("Node management: restored {} added nodes from {}", restored.size(), file);
        }
    }

    /** Records what a request added and deleted, and saves the namespaces concerned. */
    void changed(ModelChangeList changes) {
        Set<Integer> namespaces = new TreeSet<>();
        for (NodeId id : changes.added()) {
            added.add(id);
            namespaces.add(id.namespaceIndex());
        }
        for (NodeId id : changes.deleted()) {
            if (added.remove(id)) {
                namespaces.add(id.namespaceIndex());
            }
        }
        for (int namespace : namespaces) {
            save(namespace);
        }
    }

    private void save(int namespace) {
        String uri = managers.namespaces().uri(namespace);
        Path file = directory.resolve(uri.replaceAll("[^A-Za-z0-9.-]", "_") + SUFFIX);
        boolean any = added.stream().anyMatch(id -> id.namespaceIndex() == namespace);
        Path written = null;
        try {
            if (!any) {
                Files.deleteIfExists(file);
                return;
            }
            written = Files.createTempFile(directory, ".nodes-", ".tmp");
            try (OutputStream out = Files.newOutputStream(written)) {
                exporter.export(uri, node -> added.contains(node.nodeId()), out);
            }
            try {
                Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(written, file, StandardCopyOption.REPLACE_EXISTING);
            }
            written = null;
        } catch (IOException | RuntimeException e) {
            // the change stands in memory; the file keeps the previous state until the next change saves it
            log.error("Node management: the added nodes of {} could not be saved to {}", uri, file, e);
        } finally {
            deleteQuietly(written);
        }
    }

    private static void deleteQuietly(Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.warn("Node management: the temporary file {} could not be deleted", file, e);
        }
    }
}
