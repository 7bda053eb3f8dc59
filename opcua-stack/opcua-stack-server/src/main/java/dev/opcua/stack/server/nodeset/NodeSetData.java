package dev.opcua.stack.server.nodeset;

import dev.opcua.stack.server.nodeset.NodeSetDocument.Model;
import dev.opcua.stack.server.nodeset.NodeSetDocument.NodeRecord;
import dev.opcua.stack.server.nodeset.NodeSetDocument.ReferenceRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A NodeSet2 document (Part 6, Annex F) built in code rather than parsed from XML, such as the models
 * that opcua-stack-codegen writes as Java sources ({@code dev.opcua.stack.server.models}). It holds
 * exactly what the XML parser keeps of a file, so the import treats it as it treats the file:
 * RequiredModel checks, namespace remapping, aliases, DataTypeDefinitions and values.
 *
 * <p>Strings are written as in the XML: NodeIds and aliases with the file's namespace indexes,
 * attributes by their XML names, values and definitions as element trees ({@link #element}).
 */
public final class NodeSetData {

    private final List<String> namespaceUris;
    private final List<Model> models;
    private final Map<String, String> aliases;
    private final List<NodeRecord> nodes;

    private NodeSetData(List<String> namespaceUris, List<Model> models, Map<String, String> aliases,
            List<NodeRecord> nodes) {
        this.namespaceUris = namespaceUris;
        this.models = models;
        this.aliases = aliases;
        this.nodes = nodes;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The number of nodes. */
    public int size() {
        return nodes.size();
    }

    /** The document for the import, named {@code file} in messages. */
    NodeSetDocument document(String file) {
        return new NodeSetDocument(file, namespaceUris, models, aliases, nodes);
    }

    /**
     * An element of a Value or Definition: {@code attributes} as name, value pairs; {@code text} the
     * content of an element without children.
     *
     * @param line the line in the source file, for messages
     */
    public static Element element(String name, int line, String text, String[] attributes, Element... children) {
        List<XmlNode> nodes = new ArrayList<>(children.length);
        for (Element child : children) {
            nodes.add(child.node);
        }
        return new Element(new XmlNode(name, pairs(attributes), children.length == 0 && text != null ? text : "",
                List.copyOf(nodes), line));
    }

    private static Map<String, String> pairs(String[] attributes) {
        if (attributes == null || attributes.length == 0) {
            return Map.of();
        }
        if (attributes.length % 2 != 0) {
            throw new IllegalArgumentException("attributes are name, value pairs: " + List.of(attributes));
        }
        Map<String, String> map = new LinkedHashMap<>(attributes.length);
        for (int i = 0; i < attributes.length; i += 2) {
            map.put(attributes[i], Objects.requireNonNull(attributes[i + 1], attributes[i]));
        }
        return map;
    }

    /** An element tree of a value or definition; made by {@link #element}. */
    public static final class Element {
        private final XmlNode node;

        private Element(XmlNode node) {
            this.node = node;
        }
    }

    /**
     * Builds a document in file order: namespaces, models, aliases, then the nodes, each followed by
     * its names, references, value and definition.
     */
    public static final class Builder {
        private final List<String> namespaceUris = new ArrayList<>();
        private final List<Model> models = new ArrayList<>();
        private final Map<String, String> aliases = new HashMap<>();
        private final List<NodeRecord> nodes = new ArrayList<>();
        private Model model;
        private final List<Model> required = new ArrayList<>();
        // the node being built
        private String kind;
        private int line;
        private Map<String, String> attributes;
        private String[] displayName;
        private String[] description;
        private String[] inverseName;
        private List<ReferenceRecord> references;
        private XmlNode value;
        private XmlNode definition;

        private Builder() {
        }

        public Builder namespaceUris(String... uris) {
            namespaceUris.addAll(List.of(uris));
            return this;
        }

        /** A Model element (Part 6, F.2); {@code version} and {@code publicationDate} may be null. */
        public Builder model(String uri, String version, String publicationDate) {
            endModel();
            model = new Model(Objects.requireNonNull(uri, "uri"), version, publicationDate, List.of());
            return this;
        }

        /** A RequiredModel of the last {@link #model}. */
        public Builder requiredModel(String uri, String version, String publicationDate) {
            if (model == null) {
                throw new IllegalStateException("a RequiredModel before any Model");
            }
            required.add(new Model(Objects.requireNonNull(uri, "uri"), version, publicationDate, List.of()));
            return this;
        }

        public Builder alias(String alias, String nodeId) {
            aliases.put(alias, nodeId);
            return this;
        }

        /**
         * Starts a node.
         *
         * @param kind the element name: UAObject, UAVariable, UAMethod, UAView, UAObjectType,
         *     UAVariableType, UADataType or UAReferenceType
         * @param line its line in the source file, for messages
         * @param attributes its XML attributes as name, value pairs; NodeId and BrowseName are required
         */
        public Builder node(String kind, int line, String... attributes) {
            endNode();
            Map<String, String> map = pairs(attributes);
            if (map.get("NodeId") == null || map.get("BrowseName") == null) {
                throw new IllegalArgumentException("<" + kind + "> without NodeId or BrowseName: " + map);
            }
            this.kind = Objects.requireNonNull(kind, "kind");
            this.line = line;
            this.attributes = map;
            this.references = new ArrayList<>();
            return this;
        }

        public Builder displayName(String text, String locale) {
            current().displayName = new String[] {text, locale};
            return this;
        }

        public Builder description(String text, String locale) {
            current().description = new String[] {text, locale};
            return this;
        }

        public Builder inverseName(String text, String locale) {
            current().inverseName = new String[] {text, locale};
            return this;
        }

        /** A Reference of the node: its type (alias or NodeId), direction and target. */
        public Builder reference(String type, boolean forward, String target) {
            current().references.add(new ReferenceRecord(type, forward, target, line));
            return this;
        }

        /** The node's Value: the element inside {@code <Value>}. */
        public Builder value(Element element) {
            current().value = element.node;
            return this;
        }

        /** The node's {@code <Definition>} element. */
        public Builder definition(Element element) {
            current().definition = element.node;
            return this;
        }

        public NodeSetData build() {
            endNode();
            endModel();
            return new NodeSetData(List.copyOf(namespaceUris), List.copyOf(models), Map.copyOf(aliases),
                    List.copyOf(nodes));
        }

        private Builder current() {
            if (kind == null) {
                throw new IllegalStateException("no node started");
            }
            return this;
        }

        private void endModel() {
            if (model != null) {
                models.add(new Model(model.uri(), model.version(), model.publicationDate(), List.copyOf(required)));
                model = null;
                required.clear();
            }
        }

        private void endNode() {
            if (kind != null) {
                nodes.add(new NodeRecord(kind, line, attributes, displayName, description, inverseName,
                        List.copyOf(references), value, definition));
            }
            kind = null;
            displayName = null;
            description = null;
            inverseName = null;
            value = null;
            definition = null;
        }
    }
}
