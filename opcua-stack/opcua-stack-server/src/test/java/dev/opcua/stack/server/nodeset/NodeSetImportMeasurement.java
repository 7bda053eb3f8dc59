package dev.opcua.stack.server.nodeset;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.namespace0.Namespace0Loader;
import dev.opcua.stack.server.nodes.NamespaceTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints the time and retained heap of importing the four companion nodesets (DI, Machinery,
 * Machinery examples, PackML), as docs/PERFORMANCE.md reports them. Not a test: run it with
 * {@code java -cp ... dev.opcua.stack.server.nodeset.NodeSetImportMeasurement <companion dir>}.
 * The first round is cold (class loading, interpreter); the best of the following rounds is warm.
 */
public final class NodeSetImportMeasurement {

    private static final String[] FILES = {"Opc.Ua.Di.NodeSet2.xml", "Opc.Ua.Machinery.NodeSet2.xml",
        "Opc.Ua.Machinery.Examples.NodeSet2.xml", "Opc.Ua.PackML.NodeSet2.xml"};
    private static final int ROUNDS = 10;

    private NodeSetImportMeasurement() {
    }

    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: NodeSetImportMeasurement <companion dir>: the directory of the standard's"
                    + " companion NodeSet2 files (companion/ of the schema directory,"
                    + " see opcua-stack-codegen/README.md)");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        NodeStore ns0 = Namespace0Loader.load();
        long[] best = new long[FILES.length];
        java.util.Arrays.fill(best, Long.MAX_VALUE);
        List<ImportedModel> kept = null;
        for (int round = 0; round < ROUNDS; round++) {
            long usedBefore = usedAfterGc();
            List<ImportedModel> models = new ArrayList<>();
            NamespaceTable namespaces = new NamespaceTable("urn:measure");
            ModelRegistry registry = new ModelRegistry(ns0);
            for (int i = 0; i < FILES.length; i++) {
                long start = System.nanoTime();
                models.add(NodeSetImporter.importNodeSet(NodeSetSource.of(dir.resolve(FILES[i])), namespaces,
                        id -> find(ns0, models, id), registry));
                long nanos = System.nanoTime() - start;
                if (round == 0) {
                    System.out.printf("cold  %-40s %5d nodes %7.1f ms%n", FILES[i], models.get(i).store().size(),
                            nanos / 1e6);
                }
                best[i] = Math.min(best[i], nanos);
            }
            if (round == ROUNDS - 1) {
                long retained = usedAfterGc() - usedBefore;
                kept = models;
                System.out.printf("retained heap of the four imported models: %.1f MiB (%d nodes)%n",
                        retained / 1048576.0, kept.stream().mapToInt(m -> m.store().size()).sum());
            }
        }
        for (int i = 0; i < FILES.length; i++) {
            System.out.printf("warm  %-40s %7.1f ms (best of %d)%n", FILES[i], best[i] / 1e6, ROUNDS - 1);
        }
        System.out.println(kept.size() + " models");
    }

    private static UaNode find(NodeStore ns0, List<ImportedModel> models, NodeId id) {
        if (id.namespaceIndex() == 0) {
            return ns0.get(id);
        }
        for (ImportedModel model : models) {
            UaNode node = model.store().get(id);
            if (node != null) {
                return node;
            }
        }
        return null;
    }

    private static long usedAfterGc() {
        Runtime runtime = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return runtime.totalMemory() - runtime.freeMemory();
    }
}
