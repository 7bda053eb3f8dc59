package dev.opcua.stack.server.nodeset;

import dev.opcua.stack.core.encoding.generic.StructureLayout;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodeset.ImportedModel.ModelVersion;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The models a server has: namespace 0 (its version read from its NamespaceMetadata, Part 5, 6.3.13)
 * and the imported ones in load order, with the structure layouts of their DataTypes. Checks the
 * RequiredModels of a nodeset against them (Part 6, F.2): the required model must be loaded, in the
 * same or a later version and publication.
 */
public final class ModelRegistry {

    private final Map<String, ModelVersion> models = new LinkedHashMap<>();
    private final List<ImportedModel> imported = new ArrayList<>();
    private final Map<NodeId, StructureLayout> layoutsByType = new HashMap<>();
    private final Map<NodeId, StructureLayout> layoutsByEncoding = new HashMap<>();

    /** @param ns0 namespace 0, whose OPC UA NamespaceMetadata gives its version */
    public ModelRegistry(NodeStore ns0) {
        models.put(NamespaceTable.OPC_UA_NAMESPACE, new ModelVersion(NamespaceTable.OPC_UA_NAMESPACE,
                text(ns0.get(NodeId.ns0(NodeIds.OPCUANamespaceMetadata_NamespaceVersion))),
                date(ns0.get(NodeId.ns0(NodeIds.OPCUANamespaceMetadata_NamespacePublicationDate)))));
    }

    private static String text(UaNode node) {
        if (node instanceof VariableNode v && v.value().value().value() instanceof String s) {
            return s;
        }
        return null;
    }

    private static String date(UaNode node) {
        if (node instanceof VariableNode v && v.value().value().value() instanceof DateTime d) {
            return d.toInstant().toString();
        }
        return null;
    }

    /** The loaded model with this URI, or null. */
    public synchronized ModelVersion model(String uri) {
        return models.get(uri);
    }

    /** Every model: namespace 0 first, then the imported ones in load order. */
    public synchronized List<ModelVersion> models() {
        return List.copyOf(models.values());
    }

    /**
     * The RequiredModels an imported model's file gave (Part 6, F.2); none for namespace 0; null for a
     * namespace that no imported file defines.
     */
    public synchronized List<ModelVersion> requiredModels(String uri) {
        for (ImportedModel model : imported) {
            List<ModelVersion> required = model.requiredModels().get(uri);
            if (required != null) {
                return required;
            }
        }
        return uri.equals(NamespaceTable.OPC_UA_NAMESPACE) ? List.of() : null;
    }

    public synchronized List<ImportedModel> imported() {
        return List.copyOf(imported);
    }

    synchronized StructureLayout layoutOfType(NodeId dataType) {
        StructureLayout layout = layoutsByType.get(dataType);
        return layout != null ? layout : StandardLayouts.of(dataType);
    }

    synchronized StructureLayout layoutOfEncoding(NodeId encodingId) {
        return layoutsByEncoding.get(encodingId);
    }

    synchronized void addLayout(StructureLayout layout) {
        layoutsByType.put(layout.typeId(), layout);
        layoutsByEncoding.put(layout.binaryEncodingId(), layout);
    }

    /** Every generic layout of the imported models. */
    public synchronized List<StructureLayout> layouts() {
        return List.copyOf(layoutsByType.values());
    }

    synchronized void add(ImportedModel model) {
        imported.add(model);
        for (ModelVersion version : model.models()) {
            models.put(version.uri(), version);
        }
    }

    /**
     * Checks a model's requirements.
     *
     * @throws RequiredModelException naming the model, the requirement and what is loaded
     * @throws NodeSetException when the model is loaded already
     */
    synchronized void checkRequirements(String file, ModelVersion model, List<ModelVersion> required) {
        if (models.containsKey(model.uri())) {
            throw new NodeSetException(file + ": model " + model.uri() + " is loaded already (" + models.get(model.uri())
                    + ")");
        }
        for (ModelVersion requirement : required) {
            ModelVersion loaded = models.get(requirement.uri());
            if (loaded == null) {
                throw new RequiredModelException(file + ": model " + model.uri() + " requires model " + requirement
                        + ", which is not loaded: load its nodeset before this one", model.uri(), requirement.uri());
            }
            if (isOlder(loaded, requirement)) {
                throw new RequiredModelException(file + ": model " + model.uri() + " requires model " + requirement
                        + ", but the loaded one is older: " + loaded, model.uri(), requirement.uri());
            }
        }
    }

    /** Whether {@code loaded} is older than {@code required}: by version where both have one, else by date. */
    static boolean isOlder(ModelVersion loaded, ModelVersion required) {
        if (loaded.version() != null && required.version() != null) {
            return compareVersions(loaded.version(), required.version()) < 0;
        }
        Instant loadedDate = instant(loaded.publicationDate());
        Instant requiredDate = instant(required.publicationDate());
        return loadedDate != null && requiredDate != null && loadedDate.isBefore(requiredDate);
    }

    /** Compares dotted versions part by part, numerically where both parts are numbers ("1.04.0" < "1.5"). */
    static int compareVersions(String a, String b) {
        String[] x = a.trim().split("\\.");
        String[] y = b.trim().split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            String p = i < x.length ? x[i] : "0";
            String q = i < y.length ? y[i] : "0";
            int c;
            try {
                c = Long.compare(Long.parseLong(p), Long.parseLong(q));
            } catch (NumberFormatException e) {
                c = p.compareTo(q);
            }
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static Instant instant(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(text.trim()).toInstant();
        } catch (DateTimeParseException e) {
            try {
                return Instant.parse(text.trim());
            } catch (DateTimeParseException e2) {
                return null;
            }
        }
    }
}
