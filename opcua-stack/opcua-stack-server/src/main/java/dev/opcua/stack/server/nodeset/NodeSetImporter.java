package dev.opcua.stack.server.nodeset;

import dev.opcua.stack.core.encoding.generic.StructureLayout;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.StructureType;
import dev.opcua.stack.core.types.structured.DataTypeDefinition;
import dev.opcua.stack.core.types.structured.EnumDefinition;
import dev.opcua.stack.core.types.structured.EnumField;
import dev.opcua.stack.core.types.structured.StructureDefinition;
import dev.opcua.stack.core.types.structured.StructureField;
import dev.opcua.stack.server.addressspace.DataTypeNode;
import dev.opcua.stack.server.addressspace.MethodNode;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.ObjectNode;
import dev.opcua.stack.server.addressspace.ObjectTypeNode;
import dev.opcua.stack.server.addressspace.ReferenceTypeNode;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.addressspace.VariableTypeNode;
import dev.opcua.stack.server.addressspace.ViewNode;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodeset.ImportedModel.ModelVersion;
import dev.opcua.stack.server.nodeset.NodeSetDocument.Model;
import dev.opcua.stack.server.nodeset.NodeSetDocument.NodeRecord;
import dev.opcua.stack.server.nodeset.NodeSetDocument.ReferenceRecord;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Imports a NodeSet2 file (Part 6, Annex F) into a {@link NodeStore} of its own.
 *
 * <p>In order: the file's models are checked against those loaded ({@link ModelRegistry}); the
 * file's namespace indexes are mapped to the server's table (its NamespaceUris registered); the
 * nodes of every node class are made, their ids, browse names, data types and reference types
 * resolved through the Aliases; every reference is held by the node that lists it and, reversed,
 * by its target when the target is in the file (targets in namespace 0 and earlier models get their
 * reverse when the server links its node managers); DataTypeDefinitions become StructureDefinition
 * or EnumDefinition attributes and, for concrete structures, {@link StructureLayout}s for their
 * generic codec; last the values are converted, ExtensionObjects through those layouts.
 *
 * <p>A structural error (malformed XML, an unknown alias, a NodeId outside the file's namespaces,
 * a node id defined twice, a failed RequiredModel) stops the import with a {@link NodeSetException}
 * naming file, line and node. A value or definition this import cannot convert is logged as a
 * warning naming the same, and the node is kept without it.
 */
public final class NodeSetImporter {

    private static final Logger log = LoggerFactory.getLogger(NodeSetImporter.class);
    private static final NodeId BASE_DATA_TYPE = NodeId.ns0(NodeIds.BaseDataType);
    private static final NodeId STRUCTURE = NodeId.ns0(NodeIds.Structure);
    /** Warnings logged one by one; the rest are counted. */
    private static final int MAX_LOGGED_WARNINGS = 20;

    private final NodeSetDocument doc;
    private final NamespaceTable namespaces;
    private final ModelRegistry registry;
    /** Whether the file holds nodes added at run time to namespaces the server has already (not a model of its own). */
    private final boolean additions;
    private final Function<NodeId, UaNode> lookup;
    private final DataTypes dataTypes;
    private final Map<String, String> aliases;
    private int[] namespaceMap;
    private final Set<Integer> owned = new HashSet<>();
    private NodeStore store;
    private int warnings;

    private NodeSetImporter(NodeSetDocument doc, NamespaceTable namespaces, Function<NodeId, UaNode> addressSpace,
            ModelRegistry registry, boolean additions) {
        this.doc = doc;
        this.additions = additions;
        this.namespaces = namespaces;
        this.registry = registry;
        this.aliases = doc.aliases();
        this.lookup = id -> {
            UaNode node = store == null ? null : store.get(id);
            return node != null ? node : addressSpace.apply(id);
        };
        this.dataTypes = new DataTypes(lookup);
    }

    /**
     * Reads and imports a nodeset, and adds its models to the registry.
     *
     * @param addressSpace finds the nodes already in the server (namespace 0, earlier models, others)
     * @throws NodeSetException naming file, line and node when the file cannot be imported
     * @throws RequiredModelException when a RequiredModel is missing or older than required
     */
    public static ImportedModel importNodeSet(NodeSetSource source, NamespaceTable namespaces,
            Function<NodeId, UaNode> addressSpace, ModelRegistry registry) {
        long start = System.nanoTime();
        NodeSetDocument doc = NodeSetParser.parse(source);
        ImportedModel model = new NodeSetImporter(doc, namespaces, addressSpace, registry, false).run();
        registry.add(model);
        log.info("Imported {}: {} ({} nodes, {} structures) in {} ms", source.name(), model.models(),
                model.store().size(), model.layouts().size(), (System.nanoTime() - start) / 1_000_000);
        return model;
    }

    /**
     * Reads a nodeset of nodes added at run time to namespaces the server has already (written by
     * {@link NodeSetExporter#export(String, java.util.function.Predicate, java.io.OutputStream)}): its nodes,
     * with their references and values, in a store of their own for the caller to move where they belong;
     * its Model is neither checked against nor added to the registry, which already holds the namespace.
     *
     * @throws NodeSetException naming file, line and node when the file cannot be read
     */
    public static ImportedModel readAdditions(NodeSetSource source, NamespaceTable namespaces,
            Function<NodeId, UaNode> addressSpace, ModelRegistry registry) {
        return new NodeSetImporter(NodeSetParser.parse(source), namespaces, addressSpace, registry, true).run();
    }

    private ImportedModel run() {
        Map<String, List<ModelVersion>> requirements = new LinkedHashMap<>();
        List<ModelVersion> models = checkModels(requirements);
        mapNamespaces();
        store = new NodeStore(doc.nodes().size());
        UaNode[] nodes = new UaNode[doc.nodes().size()];
        for (int i = 0; i < nodes.length; i++) {
            NodeRecord record = doc.nodes().get(i);
            nodes[i] = node(record);
            try {
                store.add(nodes[i]);
            } catch (IllegalArgumentException e) {
                throw error(record, record.line(), "is defined twice", e);
            }
        }
        addReferences(nodes);
        List<StructureLayout> layouts = new ArrayList<>();
        for (int i = 0; i < nodes.length; i++) {
            NodeRecord record = doc.nodes().get(i);
            if (nodes[i] instanceof DataTypeNode && record.definition() != null) {
                nodes[i] = defineDataType(record, (DataTypeNode) nodes[i], layouts);
            }
        }
        XmlValueReader values = new XmlValueReader(new ValueContext());
        for (int i = 0; i < nodes.length; i++) {
            NodeRecord record = doc.nodes().get(i);
            if (record.value() != null) {
                nodes[i] = setValue(record, nodes[i], values);
            }
        }
        if (warnings > MAX_LOGGED_WARNINGS) {
            log.warn("{}: {} more warnings not logged", doc.file(), warnings - MAX_LOGGED_WARNINGS);
        }
        List<String> uris = models.stream().map(ModelVersion::uri).toList();
        return new ImportedModel(doc.file(), models, uris, store, List.copyOf(layouts), requirements);
    }

    /** Checks each model's RequiredModels against the registry and puts them into {@code requirements}. */
    private List<ModelVersion> checkModels(Map<String, List<ModelVersion>> requirements) {
        if (doc.models().isEmpty()) {
            throw new NodeSetException(doc.file() + ": the nodeset defines no <Model>");
        }
        List<ModelVersion> models = new ArrayList<>();
        for (Model model : doc.models()) {
            ModelVersion version = new ModelVersion(model.uri(), model.version(), model.publicationDate());
            List<ModelVersion> required = model.requiredModels().stream()
                    .map(r -> new ModelVersion(r.uri(), r.version(), r.publicationDate())).toList();
            if (!additions) {
                registry.checkRequirements(doc.file(), version, required);
            }
            models.add(version);
            requirements.put(model.uri(), required);
        }
        return models;
    }

    /** File index i (1-based, 0 is always namespace 0) to the server's index; the models' namespaces are owned. */
    private void mapNamespaces() {
        List<String> uris = doc.namespaceUris();
        namespaceMap = new int[uris.size() + 1];
        for (int i = 0; i < uris.size(); i++) {
            namespaceMap[i + 1] = namespaces.register(uris.get(i));
        }
        for (Model model : doc.models()) {
            if (!uris.contains(model.uri())) {
                throw new NodeSetException(doc.file() + ": model " + model.uri() + " is not among the NamespaceUris "
                        + uris);
            }
            owned.add(namespaces.indexOf(model.uri()));
        }
    }

    // ---- nodes

    private UaNode node(NodeRecord r) {
        NodeId nodeId = nodeId(r, r.line(), r.nodeId());
        if (!owned.contains(nodeId.namespaceIndex())) {
            throw error(r, r.line(), "is in namespace " + namespaces.uri(nodeId.namespaceIndex())
                    + ", which none of the file's models defines", null);
        }
        QualifiedName browseName = qualifiedName(r, r.attributes().get("BrowseName"));
        LocalizedText displayName = text(r.displayName());
        LocalizedText description = text(r.description());
        long writeMask = unsigned(r, "WriteMask", 0);
        long userWriteMask = unsigned(r, "UserWriteMask", 0);
        return switch (r.kind()) {
            case "UAObject" -> new ObjectNode(nodeId, browseName, displayName, description, writeMask, userWriteMask,
                    (short) unsigned(r, "EventNotifier", 0));
            case "UAVariable" -> {
                long accessLevel = unsigned(r, "AccessLevel", 1);
                long userAccessLevel = unsigned(r, "UserAccessLevel", 1);
                // Like namespace 0: the nodeset's AccessLevel may carry AccessLevelEx bits; the Byte attribute is its low 8.
                yield new VariableNode(nodeId, browseName, displayName, description, writeMask, userWriteMask, null,
                        valueAttributes(r), (short) (accessLevel & 0xFF), (short) (userAccessLevel & accessLevel & 0xFF),
                        number(r, "MinimumSamplingInterval", 0), bool(r, "Historizing", false), accessLevel);
            }
            case "UAMethod" -> new MethodNode(nodeId, browseName, displayName, description, writeMask, userWriteMask,
                    bool(r, "Executable", true), bool(r, "UserExecutable", true));
            case "UAView" -> new ViewNode(nodeId, browseName, displayName, description, writeMask, userWriteMask,
                    bool(r, "ContainsNoLoops", false), (short) unsigned(r, "EventNotifier", 0));
            case "UAObjectType" -> new ObjectTypeNode(nodeId, browseName, displayName, description, writeMask,
                    userWriteMask, bool(r, "IsAbstract", false));
            case "UAVariableType" -> new VariableTypeNode(nodeId, browseName, displayName, description, writeMask,
                    userWriteMask, bool(r, "IsAbstract", false), null, valueAttributes(r));
            case "UADataType" -> new DataTypeNode(nodeId, browseName, displayName, description, writeMask,
                    userWriteMask, bool(r, "IsAbstract", false), null);
            case "UAReferenceType" -> {
                boolean symmetric = bool(r, "Symmetric", false);
                yield new ReferenceTypeNode(nodeId, browseName, displayName, description, writeMask, userWriteMask,
                        bool(r, "IsAbstract", false), symmetric, symmetric ? null : text(r.inverseName()));
            }
            default -> throw error(r, r.line(), "has the unknown node class " + r.kind(), null);
        };
    }

    private ValueAttributes valueAttributes(NodeRecord r) {
        String dataType = r.attributes().get("DataType");
        NodeId type = dataType == null || dataType.isBlank() ? BASE_DATA_TYPE : nodeId(r, r.line(), dataType);
        int valueRank;
        try {
            String rank = r.attributes().get("ValueRank");
            valueRank = rank == null || rank.isBlank() ? -1 : Integer.parseInt(rank.trim());
        } catch (NumberFormatException e) {
            throw error(r, r.line(), "ValueRank '" + r.attributes().get("ValueRank") + "' is not a number", e);
        }
        return new ValueAttributes(type, valueRank, dimensions(r, r.attributes().get("ArrayDimensions")));
    }

    private long[] dimensions(NodeRecord r, String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        String[] parts = text.split(",");
        long[] dims = new long[parts.length];
        try {
            for (int i = 0; i < parts.length; i++) {
                dims[i] = XmlValueReader.unsigned(parts[i].trim(), 0xFFFFFFFFL);
            }
        } catch (IllegalArgumentException e) {
            throw error(r, r.line(), "ArrayDimensions '" + text + "' are not UInt32 lengths", e);
        }
        return dims;
    }

    // ---- references

    private void addReferences(UaNode[] nodes) {
        Map<UaNode, List<UaReference>> pending = new IdentityHashMap<>(nodes.length * 2);
        for (int i = 0; i < nodes.length; i++) {
            NodeRecord record = doc.nodes().get(i);
            UaNode holder = nodes[i];
            for (ReferenceRecord ref : record.references()) {
                NodeId type = nodeId(record, ref.line(), ref.type());
                NodeId target = nodeId(record, ref.line(), ref.target());
                pending.computeIfAbsent(holder, k -> new ArrayList<>())
                        .add(new UaReference(type, ExpandedNodeId.of(target), ref.forward()));
                UaNode targetNode = store.get(target);
                if (targetNode != null) {
                    pending.computeIfAbsent(targetNode, k -> new ArrayList<>())
                            .add(new UaReference(type, ExpandedNodeId.of(holder.nodeId()), !ref.forward()));
                } else if (lookup.apply(target) == null) {
                    warn(record, ref.line(), "reference target " + ref.target() + " is in no loaded model");
                }
                if (lookup.apply(type) == null) {
                    warn(record, ref.line(), "reference type " + ref.type() + " is in no loaded model");
                }
            }
        }
        pending.forEach((node, references) -> node.addReferences(references.toArray(new UaReference[0])));
    }

    // ---- data types

    /** Gives the DataType its definition attribute (a new node with the same references) and its layout. */
    private UaNode defineDataType(NodeRecord r, DataTypeNode node, List<StructureLayout> layouts) {
        DataTypeDefinition definition;
        try {
            definition = definition(r, node);
        } catch (RuntimeException e) {
            warn(r, r.definition().line(), "Definition not imported: " + e.getMessage());
            return node;
        }
        DataTypeNode defined = new DataTypeNode(node.nodeId(), node.browseName(), node.displayName(),
                node.description(), node.writeMask(), node.userWriteMask(), node.isAbstract(),
                ExtensionObject.of(definition));
        replace(node, defined);
        if (definition instanceof StructureDefinition structure && !node.isAbstract()) {
            try {
                StructureLayout layout = StructureLayout.of(node.nodeId(), node.browseName().name(), structure,
                        dataTypes::fieldEncoding);
                registry.addLayout(layout);
                layouts.add(layout);
            } catch (IllegalArgumentException e) {
                warn(r, r.definition().line(), "values of this structure cannot be encoded: " + e.getMessage());
            }
        }
        return defined;
    }

    /** Part 3, 8.48 and 8.49 from the nodeset's Definition element (Part 6, F.12). */
    private DataTypeDefinition definition(NodeRecord r, DataTypeNode node) {
        XmlNode definition = r.definition();
        List<XmlNode> fields = definition.children().stream().filter(c -> c.name().equals("Field")).toList();
        if (dataTypes.isEnumeration(node.nodeId()) || "true".equals(definition.attribute("IsOptionSet"))) {
            EnumField[] enumFields = new EnumField[fields.size()];
            for (int i = 0; i < enumFields.length; i++) {
                XmlNode f = fields.get(i);
                String name = f.attribute("Name");
                String value = f.attribute("Value");
                XmlNode display = f.child("DisplayName");
                enumFields[i] = new EnumField(value == null ? i : Long.parseLong(value.trim()),
                        display == null ? LocalizedText.of(name) : nodesetText(display), nodesetText(f.child("Description")),
                        name);
            }
            return new EnumDefinition(enumFields);
        }
        boolean union = "true".equals(definition.attribute("IsUnion"));
        boolean optional = false;
        boolean subtyped = false;
        StructureField[] structureFields = new StructureField[fields.size()];
        for (int i = 0; i < structureFields.length; i++) {
            XmlNode f = fields.get(i);
            String dataType = f.attribute("DataType");
            String rank = f.attribute("ValueRank");
            String maxLength = f.attribute("MaxStringLength");
            boolean isOptional = "true".equals(f.attribute("IsOptional"));
            optional |= isOptional;
            subtyped |= "true".equals(f.attribute("AllowSubTypes"));
            structureFields[i] = new StructureField(f.attribute("Name"), nodesetText(f.child("Description")),
                    dataType == null || dataType.isBlank() ? BASE_DATA_TYPE : nodeId(r, f.line(), dataType),
                    rank == null ? -1 : Integer.parseInt(rank.trim()), dimensions(r, f.attribute("ArrayDimensions")),
                    maxLength == null ? 0 : Long.parseLong(maxLength.trim()), isOptional);
        }
        StructureType type = union ? (subtyped ? StructureType.UnionWithSubtypedValues : StructureType.Union)
                : subtyped ? StructureType.StructureWithSubtypedValues
                : optional ? StructureType.StructureWithOptionalFields : StructureType.Structure;
        NodeId supertype = dataTypes.supertype(node.nodeId());
        NodeId encoding = dataTypes.binaryEncoding(node.nodeId());
        return new StructureDefinition(encoding == null ? NodeId.NULL : encoding,
                supertype == null ? STRUCTURE : supertype, type, structureFields);
    }

    // ---- values

    private UaNode setValue(NodeRecord r, UaNode node, XmlValueReader values) {
        Variant value;
        try {
            value = values.toVariant(r.value());
        } catch (RuntimeException e) {
            // best effort: a value this import cannot convert (or whose ids do not resolve) leaves the node without it
            warn(r, r.value().line(), "value not imported: " + e.getMessage());
            return node;
        }
        if (node instanceof VariableNode variable) {
            variable.setValue(DataValue.of(value));
            return node;
        }
        if (node instanceof VariableTypeNode type) {
            VariableTypeNode valued = new VariableTypeNode(type.nodeId(), type.browseName(), type.displayName(),
                    type.description(), type.writeMask(), type.userWriteMask(), type.isAbstract(), value,
                    type.valueAttributes());
            replace(type, valued);
            return valued;
        }
        warn(r, r.value().line(), "a " + r.kind() + " has no Value attribute; the value is ignored");
        return node;
    }

    /** Converts values with the file's namespaces and the structures known so far. */
    private final class ValueContext implements XmlValueReader.Context {
        private StructureXmlReader structures;

        @Override
        public NodeId nodeId(String text) {
            return remap(null, 0, parse(null, 0, text));
        }

        @Override
        public int namespaceIndex(int fileIndex) {
            if (fileIndex >= namespaceMap.length) {
                throw new IllegalArgumentException("namespace index " + fileIndex + " is not in the NamespaceUris");
            }
            return namespaceMap[fileIndex];
        }

        @Override
        public ExtensionObject extensionObject(NodeId typeId, XmlNode body) {
            NodeId dataType = dataTypes.dataTypeOf(typeId);
            StructureLayout layout = dataType == null ? null : registry.layoutOfType(dataType);
            if (layout == null) {
                return null;
            }
            if (structures == null) {
                structures = new StructureXmlReader(new XmlValueReader(this), registry::layoutOfEncoding);
            }
            return ExtensionObject.of(structures.read(layout, body));
        }
    }

    // ---- helpers

    private void replace(UaNode old, UaNode fresh) {
        store.remove(old.nodeId());
        fresh.addReferences(old.references());
        store.add(fresh);
    }

    /** A NodeId of the file (or an alias) as the server's. */
    private NodeId nodeId(NodeRecord r, int line, String text) {
        String resolved = aliases.getOrDefault(text.trim(), text.trim());
        return remap(r, line, parse(r, line, resolved));
    }

    private NodeId parse(NodeRecord r, int line, String text) {
        try {
            return NodeId.parse(text);
        } catch (IllegalArgumentException e) {
            throw error(r, line, "'" + text + "' is neither an alias nor a NodeId", e);
        }
    }

    private NodeId remap(NodeRecord r, int line, NodeId id) {
        int ns = id.namespaceIndex();
        if (ns == 0) {
            return id;
        }
        if (ns >= namespaceMap.length) {
            throw error(r, line, "namespace index " + ns + " of " + id + " is not in the file's NamespaceUris", null);
        }
        return id.withNamespaceIndex(namespaceMap[ns]);
    }

    /** "1:Name" (the prefix a file namespace index) or "Name" (namespace 0). */
    private QualifiedName qualifiedName(NodeRecord r, String text) {
        int colon = text.indexOf(':');
        if (colon > 0) {
            String prefix = text.substring(0, colon);
            if (prefix.chars().allMatch(Character::isDigit)) {
                int ns = Integer.parseInt(prefix);
                if (ns >= namespaceMap.length) {
                    throw error(r, r.line(), "BrowseName " + text + " has a namespace index outside the NamespaceUris",
                            null);
                }
                return QualifiedName.of(ns == 0 ? 0 : namespaceMap[ns], text.substring(colon + 1));
            }
        }
        return QualifiedName.of(0, text);
    }

    private static LocalizedText text(String[] textAndLocale) {
        return textAndLocale == null ? null : LocalizedText.of(textAndLocale[1], textAndLocale[0]);
    }

    /** A LocalizedText element of the nodeset schema inside a Definition: text content, Locale attribute. */
    private static LocalizedText nodesetText(XmlNode e) {
        if (e == null) {
            return LocalizedText.NULL;
        }
        String locale = e.attribute("Locale");
        return LocalizedText.of(locale == null || locale.isBlank() ? null : locale, e.text());
    }

    private long unsigned(NodeRecord r, String attribute, long absent) {
        String text = r.attributes().get(attribute);
        if (text == null || text.isBlank()) {
            return absent;
        }
        try {
            return XmlValueReader.unsigned(text.trim(), 0xFFFFFFFFL);
        } catch (IllegalArgumentException e) {
            throw error(r, r.line(), attribute + " '" + text + "' is not an unsigned number", e);
        }
    }

    private double number(NodeRecord r, String attribute, double absent) {
        String text = r.attributes().get(attribute);
        try {
            return text == null || text.isBlank() ? absent : Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw error(r, r.line(), attribute + " '" + text + "' is not a number", e);
        }
    }

    private static boolean bool(NodeRecord r, String attribute, boolean absent) {
        String text = r.attributes().get(attribute);
        return text == null || text.isBlank() ? absent : text.trim().equals("true") || text.trim().equals("1");
    }

    private NodeSetException error(NodeRecord r, int line, String problem, Throwable cause) {
        return NodeSetException.at(doc.file(), line, r == null ? null : r.nodeId(), problem, cause);
    }

    private void warn(NodeRecord r, int line, String problem) {
        if (++warnings <= MAX_LOGGED_WARNINGS) {
            log.warn("{}:{}: node {}: {}", doc.file(), line, r.nodeId(), problem);
        }
    }
}
