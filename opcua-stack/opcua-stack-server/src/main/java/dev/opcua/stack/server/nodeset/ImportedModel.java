package dev.opcua.stack.server.nodeset;

import dev.opcua.stack.core.encoding.generic.StructureLayout;
import dev.opcua.stack.server.addressspace.NodeStore;
import java.util.List;
import java.util.Map;

/**
 * The result of importing one NodeSet2 file.
 *
 * @param file the source's name
 * @param models the models it defines (URI, version, publication date)
 * @param namespaceUris the namespaces its nodes live in (the models' URIs)
 * @param store its nodes
 * @param layouts the structures of its DataTypes that are encoded generically
 * @param requiredModels the RequiredModels of each of its models, by model URI (Part 6, F.2)
 */
public record ImportedModel(String file, List<ModelVersion> models, List<String> namespaceUris, NodeStore store,
        List<StructureLayout> layouts, Map<String, List<ModelVersion>> requiredModels) {

    public ImportedModel {
        requiredModels = Map.copyOf(requiredModels);
    }

    /** A model without RequiredModels. */
    public ImportedModel(String file, List<ModelVersion> models, List<String> namespaceUris, NodeStore store,
            List<StructureLayout> layouts) {
        this(file, models, namespaceUris, store, layouts, Map.of());
    }

    /**
     * A model and its version (Part 6, F.2).
     *
     * @param version e.g. "1.04.0", or null
     * @param publicationDate xs:dateTime text, or null
     */
    public record ModelVersion(String uri, String version, String publicationDate) {
        @Override
        public String toString() {
            return uri + (version == null ? "" : " version " + version)
                    + (publicationDate == null ? "" : " published " + publicationDate);
        }
    }
}
