package dev.opcua.stack.server.nodeset;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.StructureType;
import dev.opcua.stack.core.types.structured.EnumDefinition;
import dev.opcua.stack.core.types.structured.EnumField;
import dev.opcua.stack.core.types.structured.StructureDefinition;
import dev.opcua.stack.core.types.structured.StructureField;
import dev.opcua.stack.server.addressspace.DataTypeNode;
import dev.opcua.stack.server.addressspace.MethodNode;
import dev.opcua.stack.server.addressspace.ObjectNode;
import dev.opcua.stack.server.addressspace.ReferenceTypeNode;
import dev.opcua.stack.server.addressspace.TypeNode;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.addressspace.VariableTypeNode;
import dev.opcua.stack.server.addressspace.ViewNode;
import dev.opcua.stack.server.nodeset.ImportedModel.ModelVersion;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import javax.xml.stream.XMLStreamException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes nodes as a UANodeSet document (Part 6, Annex F): NamespaceUris, Models, Aliases, then one
 * UAObject, UAVariable, UAMethod, UAView, UAObjectType, UAVariableType, UADataType or UAReferenceType
 * element per node with its attributes (those at their schema default left out), DisplayName,
 * Description, References, and its Value, Definition or InverseName. Its mirror image is
 * {@link NodeSetParser} with {@link NodeSetImporter}: what this writes, they read back to the same nodes.
 */
final class NodeSetWriter {

    static final String NODESET_NAMESPACE = "http://opcfoundation.org/UA/2011/03/UANodeSet.xsd";

    private static final Logger log = LoggerFactory.getLogger(NodeSetWriter.class);
    private static final NodeId BASE_DATA_TYPE = NodeId.ns0(NodeIds.BaseDataType);
    private static final NodeId AGGREGATES = NodeId.ns0(NodeIds.Aggregates);
    /** Values and references left out are logged one by one up to here; the rest are counted. */
    private static final int MAX_LOGGED_WARNINGS = 20;
    private static final Map<String, String> PREFIXES = Map.of("uax", XmlValueWriter.TYPES_NAMESPACE);

    private final ExportScope scope;
    private final XmlValueWriter values;
    private IndentedXmlWriter xml;

    NodeSetWriter(ExportScope scope) {
        this.scope = scope;
        this.values = new XmlValueWriter(scope);
    }

    /** Writes the document; while the scope is {@link ExportScope#collecting()}, the nodes only. */
    void write(List<UaNode> nodes, OutputStream out) throws XMLStreamException {
        xml = new IndentedXmlWriter(out);
        xml.startDocument();
        xml.start("", "UANodeSet", NODESET_NAMESPACE);
        xml.defaultNamespace(NODESET_NAMESPACE);
        xml.namespace("uax", XmlValueWriter.TYPES_NAMESPACE);
        if (!scope.collecting()) {
            header();
        }
        for (UaNode node : nodes) {
            node(node);
        }
        xml.end();
        xml.finish();
    }

    private void header() throws XMLStreamException {
        xml.start("NamespaceUris");
        for (String uri : scope.namespaceUris()) {
            xml.textElement("Uri", uri);
        }
        xml.end();
        xml.start("Models");
        xml.start("Model");
        String uri = scope.exportedUri();
        ModelVersion model = scope.registry().model(uri);
        modelAttributes(model != null ? model : new ModelVersion(uri, null, null));
        for (ModelVersion required : requiredModels(uri)) {
            xml.empty("RequiredModel");
            modelAttributes(required);
        }
        xml.end();
        xml.end();
        Map<String, NodeId> aliases = scope.aliases();
        if (!aliases.isEmpty()) {
            xml.start("Aliases");
            for (Map.Entry<String, NodeId> alias : aliases.entrySet()) {
                xml.start("Alias");
                xml.attribute("Alias", alias.getKey());
                xml.text(alias.getValue().toString());
                xml.end();
            }
            xml.end();
        }
    }

    private void modelAttributes(ModelVersion model) throws XMLStreamException {
        xml.attribute("ModelUri", model.uri());
        if (model.version() != null) {
            xml.attribute("Version", model.version());
        }
        if (model.publicationDate() != null) {
            xml.attribute("PublicationDate", model.publicationDate());
        }
    }

    /**
     * The RequiredModels: an imported model's as its file gave them; for a namespace the application
     * built, namespace 0 and every loaded model its nodes refer to.
     */
    private List<ModelVersion> requiredModels(String uri) {
        List<ModelVersion> known = scope.registry().requiredModels(uri);
        if (known != null) {
            return known;
        }
        List<ModelVersion> required = new java.util.ArrayList<>();
        ModelVersion ns0 = scope.registry().model(scope.uri(0));
        if (ns0 != null) {
            required.add(ns0);
        }
        for (String used : scope.namespaceUris().subList(1, scope.namespaceUris().size())) {
            ModelVersion model = scope.registry().model(used);
            if (model != null) {
                required.add(model);
            }
        }
        return required;
    }

    // ---- nodes

    private void node(UaNode node) throws XMLStreamException {
        xml.start(elementName(node));
        xml.attribute("NodeId", scope.nodeId(node.nodeId()));
        xml.attribute("BrowseName", scope.qualifiedName(node.browseName()));
        unsignedAttribute("WriteMask", node.writeMask(), 0);
        unsignedAttribute("UserWriteMask", node.userWriteMask(), 0);
        if (node instanceof ObjectNode || node instanceof VariableNode || node instanceof MethodNode) {
            NodeId parent = parent(node);
            if (parent != null) {
                xml.attribute("ParentNodeId", scope.nodeId(parent));
            }
        }
        classAttributes(node);
        localizedText("DisplayName", node.displayName());
        if (node.description() != null && !node.description().isNull()) {
            localizedText("Description", node.description());
        }
        references(node);
        if (node instanceof VariableNode variable) {
            value(node, variable.value().value());
        } else if (node instanceof VariableTypeNode type) {
            value(node, type.value());
        } else if (node instanceof DataTypeNode dataType && dataType.dataTypeDefinition() != null) {
            definition(dataType, dataType.dataTypeDefinition());
        } else if (node instanceof ReferenceTypeNode referenceType && referenceType.inverseName() != null) {
            localizedText("InverseName", referenceType.inverseName());
        }
        xml.end();
    }

    private static String elementName(UaNode node) {
        return "UA" + node.nodeClass().name();
    }

    /** The attributes of the node's class that differ from the UANodeSet.xsd defaults. */
    private void classAttributes(UaNode node) throws XMLStreamException {
        if (node instanceof VariableNode v) {
            valueAttributes(v.valueAttributes());
            // AccessLevel carries the AccessLevelEx bits above the Byte attribute's, as the importer reads it
            unsignedAttribute("AccessLevel", (v.accessLevelEx() & ~0xFFL) | v.accessLevel(), 1);
            unsignedAttribute("UserAccessLevel", v.userAccessLevel(), 1);
            if (v.minimumSamplingInterval() != 0) {
                xml.attribute("MinimumSamplingInterval", XmlValueWriter.doubleText(v.minimumSamplingInterval()));
            }
            flag("Historizing", v.historizing());
        } else if (node instanceof ObjectNode o) {
            unsignedAttribute("EventNotifier", o.eventNotifier(), 0);
        } else if (node instanceof MethodNode m) {
            flag("Executable", !m.executable(), "false");
            flag("UserExecutable", !m.userExecutable(), "false");
        } else if (node instanceof ViewNode v) {
            flag("ContainsNoLoops", v.containsNoLoops());
            unsignedAttribute("EventNotifier", v.eventNotifier(), 0);
        }
        if (node instanceof TypeNode type) {
            flag("IsAbstract", type.isAbstract());
        }
        if (node instanceof VariableTypeNode type) {
            valueAttributes(type.valueAttributes());
        } else if (node instanceof ReferenceTypeNode type) {
            flag("Symmetric", type.symmetric());
        }
    }

    private void valueAttributes(ValueAttributes attributes) throws XMLStreamException {
        if (!BASE_DATA_TYPE.equals(attributes.dataType())) {
            xml.attribute("DataType", scope.typeReference(attributes.dataType()));
        }
        if (attributes.valueRank() != -1) {
            xml.attribute("ValueRank", Integer.toString(attributes.valueRank()));
        }
        if (attributes.arrayDimensions() != null) {
            xml.attribute("ArrayDimensions", dimensions(attributes.arrayDimensions()));
        }
    }

    private static String dimensions(long[] dimensions) {
        StringJoiner text = new StringJoiner(",");
        for (long d : dimensions) {
            text.add(Long.toString(d));
        }
        return text.toString();
    }

    /**
     * The parent of an instance (Part 6, F.3 ParentNodeId): the source of its inverse HasComponent,
     * HasProperty or other Aggregates reference, or null.
     */
    private NodeId parent(UaNode node) {
        for (UaReference r : node.references()) {
            if (!r.forward() && r.targetId().isLocal() && scope.keeps(r)
                    && scope.dataTypes().isSubtypeOf(r.referenceTypeId(), AGGREGATES)) {
                return r.targetId().nodeId();
            }
        }
        return null;
    }

    private void references(UaNode node) throws XMLStreamException {
        UaReference[] references = node.references();
        boolean started = false;
        for (UaReference r : references) {
            if (!r.targetId().isLocal()) {
                warn(node, "reference to " + r.targetId()
                        + " left out: a NodeSet2 reference names a node of this server");
                continue;
            }
            if (!scope.keeps(r)) {
                continue;
            }
            if (!started) {
                xml.start("References");
                started = true;
            }
            xml.start("Reference");
            xml.attribute("ReferenceType", scope.typeReference(r.referenceTypeId()));
            if (!r.forward()) {
                xml.attribute("IsForward", "false");
            }
            xml.text(scope.nodeId(r.targetId().nodeId()));
            xml.end();
        }
        if (started) {
            xml.end();
        }
    }

    private void value(UaNode node, Variant value) throws XMLStreamException {
        if (value == null || value.isNull()) {
            return;
        }
        XmlNode element;
        try {
            element = values.toXml(value);
        } catch (XmlValueReader.UnsupportedValueException e) {
            warn(node, "value left out: " + e.getMessage());
            return;
        }
        xml.start("Value");
        xml.write(element, PREFIXES);
        xml.end();
    }

    // ---- DataTypeDefinition (Part 6, F.12)

    private void definition(DataTypeNode node, ExtensionObject definition) throws XMLStreamException {
        Object decoded = definition.decoded();
        if (decoded instanceof StructureDefinition structure) {
            StructureField[] fields = structure.fields() == null ? new StructureField[0] : structure.fields();
            startDefinition(node, fields.length > 0);
            StructureType kind = structure.structureType();
            boolean subtyped = kind == StructureType.StructureWithSubtypedValues
                    || kind == StructureType.UnionWithSubtypedValues;
            flag("IsUnion", kind == StructureType.Union || kind == StructureType.UnionWithSubtypedValues);
            for (StructureField field : fields) {
                structureField(field, subtyped);
            }
            endDefinition(fields.length > 0);
        } else if (decoded instanceof EnumDefinition enumeration) {
            EnumField[] fields = enumeration.fields() == null ? new EnumField[0] : enumeration.fields();
            startDefinition(node, fields.length > 0);
            // an EnumDefinition of a type outside Enumeration's subtypes describes the bits of an OptionSet
            flag("IsOptionSet", !scope.dataTypes().isEnumeration(node.nodeId()));
            for (EnumField field : fields) {
                enumField(field);
            }
            endDefinition(fields.length > 0);
        } else {
            warn(node, "DataTypeDefinition left out: " + definition + " is neither a structure nor an enumeration");
        }
    }

    private void startDefinition(DataTypeNode node, boolean hasFields) throws XMLStreamException {
        if (hasFields) {
            xml.start("Definition");
        } else {
            xml.empty("Definition");
        }
        xml.attribute("Name", scope.qualifiedName(node.browseName()));
    }

    private void endDefinition(boolean hasFields) throws XMLStreamException {
        if (hasFields) {
            xml.end();
        }
    }

    /**
     * A structure field; in a structure with subtyped values every field says AllowSubTypes, which the
     * definition keeps only for the structure as a whole.
     */
    private void structureField(StructureField field, boolean subtyped) throws XMLStreamException {
        boolean described = field.description() != null && !field.description().isNull();
        startField(described);
        xml.attribute("Name", field.name());
        if (field.dataType() != null && !BASE_DATA_TYPE.equals(field.dataType())) {
            xml.attribute("DataType", scope.typeReference(field.dataType()));
        }
        if (field.valueRank() != -1) {
            xml.attribute("ValueRank", Integer.toString(field.valueRank()));
        }
        if (field.arrayDimensions() != null && field.arrayDimensions().length > 0) {
            xml.attribute("ArrayDimensions", dimensions(field.arrayDimensions()));
        }
        unsignedAttribute("MaxStringLength", field.maxStringLength(), 0);
        flag("IsOptional", field.isOptional());
        flag("AllowSubTypes", subtyped);
        if (described) {
            localizedText("Description", field.description());
            xml.end();
        }
    }

    private void enumField(EnumField field) throws XMLStreamException {
        // the importer takes the name for a missing DisplayName
        boolean displayed = field.displayName() != null && !field.displayName().isNull()
                && !field.displayName().equals(LocalizedText.of(field.name()));
        boolean described = field.description() != null && !field.description().isNull();
        startField(displayed || described);
        xml.attribute("Name", field.name());
        xml.attribute("Value", Long.toString(field.value()));
        if (displayed) {
            localizedText("DisplayName", field.displayName());
        }
        if (described) {
            localizedText("Description", field.description());
        }
        if (displayed || described) {
            xml.end();
        }
    }

    /** A Field element, empty unless it has texts inside; the caller ends one that is not. */
    private void startField(boolean hasContent) throws XMLStreamException {
        if (hasContent) {
            xml.start("Field");
        } else {
            xml.empty("Field");
        }
    }

    // ---- helpers

    /** A LocalizedText of the nodeset schema: the text as content, the locale as an attribute. */
    private void localizedText(String element, LocalizedText text) throws XMLStreamException {
        xml.start(element);
        if (text.locale() != null && !text.locale().isEmpty()) {
            xml.attribute("Locale", text.locale());
        }
        xml.text(text.text() == null ? "" : text.text());
        xml.end();
    }

    private void unsignedAttribute(String name, long value, long schemaDefault) throws XMLStreamException {
        if (value != schemaDefault) {
            xml.attribute(name, Long.toString(value));
        }
    }

    private void flag(String name, boolean set) throws XMLStreamException {
        flag(name, set, "true");
    }

    private void flag(String name, boolean set, String text) throws XMLStreamException {
        if (set) {
            xml.attribute(name, text);
        }
    }

    private void warn(UaNode node, String problem) {
        int count = scope.warn();
        if (count > 0 && count <= MAX_LOGGED_WARNINGS) {
            log.warn("NodeSet export of {}: node {}: {}", scope.exportedUri(), node.nodeId(), problem);
        }
    }
}
