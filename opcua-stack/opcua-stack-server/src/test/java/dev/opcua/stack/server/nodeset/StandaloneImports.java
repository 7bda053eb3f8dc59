package dev.opcua.stack.server.nodeset;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.namespace0.Namespace0Loader;
import dev.opcua.stack.server.nodes.NamespaceTable;
import java.util.ArrayList;
import java.util.List;

/** The imports of one server without the server: namespace table, model registry and the imported stores. */
final class StandaloneImports {

    private static NodeStore ns0;

    final NamespaceTable namespaces = new NamespaceTable("urn:test:standalone-imports");
    final ModelRegistry registry = new ModelRegistry(namespace0());
    final List<ImportedModel> models = new ArrayList<>();

    /** Namespace 0, loaded once per test JVM. */
    static synchronized NodeStore namespace0() {
        if (ns0 == null) {
            ns0 = Namespace0Loader.load();
        }
        return ns0;
    }

    ImportedModel load(NodeSetSource source) {
        ImportedModel model = NodeSetImporter.importNodeSet(source, namespaces, this::find, registry);
        models.add(model);
        return model;
    }

    UaNode find(NodeId id) {
        if (id.namespaceIndex() == 0) {
            return namespace0().get(id);
        }
        for (ImportedModel model : models) {
            UaNode node = model.store().get(id);
            if (node != null) {
                return node;
            }
        }
        return null;
    }
}
