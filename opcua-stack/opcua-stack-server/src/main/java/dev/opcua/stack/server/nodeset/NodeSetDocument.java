package dev.opcua.stack.server.nodeset;

import java.util.List;
import java.util.Map;

/**
 * A NodeSet2 file as read (Part 6, F.1), before its ids are mapped to the server's namespaces.
 *
 * @param file the source's name, for messages
 * @param namespaceUris the file's NamespaceUris: index i + 1 of the file's ids is {@code namespaceUris.get(i)}
 * @param models the models the file defines
 * @param aliases alias to NodeId text
 * @param nodes the nodes in file order
 */
record NodeSetDocument(String file, List<String> namespaceUris, List<Model> models, Map<String, String> aliases,
        List<NodeRecord> nodes) {

    /** A Model element (Part 6, F.2), or a RequiredModel inside one (which has no requirements). */
    record Model(String uri, String version, String publicationDate, List<Model> requiredModels) {
    }

    /** A Reference element. */
    record ReferenceRecord(String type, boolean forward, String target, int line) {
    }

    /**
     * A UAObject, UAVariable ... element.
     *
     * @param kind the element name, e.g. UAVariable
     * @param attributes its XML attributes
     * @param displayName the first DisplayName (text and locale), or null
     * @param description the first Description, or null
     * @param inverseName the first InverseName of a reference type, or null
     */
    record NodeRecord(String kind, int line, Map<String, String> attributes, String[] displayName,
            String[] description, String[] inverseName, List<ReferenceRecord> references, XmlNode value,
            XmlNode definition) {

        String nodeId() {
            return attributes.get("NodeId");
        }
    }
}
