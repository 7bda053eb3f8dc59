package dev.opcua.stack.codegen.schema;

import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.stream.Location;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads a UANodeSet XML file (Part 6, Annex F), such as Opc.Ua.NodeSet2.xml, into a {@link NodeSet}
 * with a streaming (StAX) parser.
 *
 * <p>Read per node: NodeId, BrowseName, the first DisplayName and Description, WriteMask,
 * UserWriteMask, the attributes of its node class, the Value of variables and variable types
 * (through {@link NodeSetValues}; a value it cannot convert is dropped and listed in
 * {@link NodeSet#droppedValues()}) and the References. Aliases are resolved to NodeIds.
 * Not read: DataType Definitions (counted), RolePermissions, AccessRestrictions, Category,
 * Documentation, Extensions and the informative attributes (ParentNodeId, SymbolicName,
 * ReleaseStatus, MethodDeclarationId).
 */
public final class NodeSetReader {

    /** Namespace of the UANodeSet elements. */
    public static final String NODESET_NS = "http://opcfoundation.org/UA/2011/03/UANodeSet.xsd";

    /** The standard nodeset file of the schema directory (namespace 0). */
    public static final String STANDARD_FILE = "Opc.Ua.NodeSet2.xml";

    private final String source;
    private final XMLStreamReader xml;
    private final Map<String, NodeId> aliases = new LinkedHashMap<>();
    private final List<String> namespaceUris = new ArrayList<>();
    private final List<NodeDef> nodes = new ArrayList<>();
    private final List<String> droppedValues = new ArrayList<>();
    private int skippedDefinitions;

    private NodeSetReader(String source, XMLStreamReader xml) {
        this.source = source;
        this.xml = xml;
    }

    /** Reads the nodeset in {@code file}. */
    public static NodeSet read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(file.toString(), in);
        }
    }

    /** Reads a nodeset from {@code in}; {@code source} names it in error messages. */
    public static NodeSet read(String source, InputStream in) {
        XMLStreamReader xml = null;
        try {
            xml = newFactory().createXMLStreamReader(in);
            return new NodeSetReader(source, xml).readDocument();
        } catch (XMLStreamException e) {
            throw new SchemaException(source + ": not a well-formed nodeset: " + e.getMessage(), e);
        } finally {
            if (xml != null) {
                try {
                    xml.close();
                } catch (XMLStreamException e) {
                    // closing a reader over a stream the caller closes: nothing to release
                }
            }
        }
    }

    private static XMLInputFactory newFactory() {
        XMLInputFactory factory = XMLInputFactory.newFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
        factory.setProperty(XMLInputFactory.IS_COALESCING, true);
        return factory;
    }

    private NodeSet readDocument() throws XMLStreamException {
        xml.nextTag();
        if (!NODESET_NS.equals(xml.getNamespaceURI()) || !"UANodeSet".equals(xml.getLocalName())) {
            throw error("root element is not UANodeSet of " + NODESET_NS);
        }
        while (nextChild()) {
            String name = xml.getLocalName();
            NodeClass nodeClass = nodeClass(name);
            if (nodeClass != null) {
                nodes.add(readNode(nodeClass));
            } else if (name.equals("Aliases")) {
                readAliases();
            } else if (name.equals("NamespaceUris")) {
                while (nextChild()) {
                    namespaceUris.add(xml.getElementText().trim());
                }
            } else {
                skipElement();
            }
        }
        return new NodeSet(namespaceUris, aliases, nodes, droppedValues, skippedDefinitions);
    }

    private static NodeClass nodeClass(String element) {
        return switch (element) {
            case "UAObject" -> NodeClass.Object;
            case "UAVariable" -> NodeClass.Variable;
            case "UAMethod" -> NodeClass.Method;
            case "UAView" -> NodeClass.View;
            case "UAObjectType" -> NodeClass.ObjectType;
            case "UAVariableType" -> NodeClass.VariableType;
            case "UADataType" -> NodeClass.DataType;
            case "UAReferenceType" -> NodeClass.ReferenceType;
            default -> null;
        };
    }

    private void readAliases() throws XMLStreamException {
        while (nextChild()) {
            String alias = requiredAttribute("Alias");
            NodeId target = parseNodeId(xml.getElementText().trim());
            if (aliases.putIfAbsent(alias, target) != null) {
                throw error("alias '" + alias + "' defined twice");
            }
        }
    }

    private NodeDef readNode(NodeClass nodeClass) throws XMLStreamException {
        NodeId nodeId = parseNodeId(requiredAttribute("NodeId"));
        QualifiedName browseName = parseQualifiedName(requiredAttribute("BrowseName"));
        long writeMask = unsignedAttribute("WriteMask", 0, 0xFFFFFFFFL);
        long userWriteMask = unsignedAttribute("UserWriteMask", 0, 0xFFFFFFFFL);
        boolean isAbstract = booleanAttribute("IsAbstract", false);
        boolean symmetric = booleanAttribute("Symmetric", false);
        short eventNotifier = (short) unsignedAttribute("EventNotifier", 0, 0xFF);
        boolean containsNoLoops = booleanAttribute("ContainsNoLoops", false);
        String dataTypeText = xml.getAttributeValue(null, "DataType");
        NodeId dataType = dataTypeText == null ? NodeId.ns0(24) : resolve(dataTypeText);
        int valueRank = intAttribute("ValueRank", -1);
        long[] arrayDimensions = arrayDimensions(xml.getAttributeValue(null, "ArrayDimensions"));
        long accessLevel = unsignedAttribute("AccessLevel", 1, 0xFFFFFFFFL);
        long userAccessLevel = unsignedAttribute("UserAccessLevel", 1, 0xFFFFFFFFL);
        double minimumSamplingInterval = doubleAttribute("MinimumSamplingInterval", 0);
        boolean historizing = booleanAttribute("Historizing", false);
        boolean executable = booleanAttribute("Executable", true);
        boolean userExecutable = booleanAttribute("UserExecutable", true);

        LocalizedText displayName = null;
        LocalizedText description = null;
        LocalizedText inverseName = null;
        Variant value = null;
        List<ReferenceDef> references = new ArrayList<>();
        while (nextChild()) {
            switch (xml.getLocalName()) {
                case "DisplayName" -> {
                    LocalizedText text = readLocalizedText();
                    displayName = displayName == null ? text : displayName;
                }
                case "Description" -> {
                    LocalizedText text = readLocalizedText();
                    description = description == null ? text : description;
                }
                case "InverseName" -> {
                    LocalizedText text = readLocalizedText();
                    inverseName = inverseName == null ? text : inverseName;
                }
                case "References" -> readReferences(references);
                case "Value" -> value = readValue(nodeId, browseName);
                case "Definition" -> {
                    skippedDefinitions++;
                    skipElement();
                }
                default -> skipElement();
            }
        }
        if (displayName == null) {
            displayName = LocalizedText.of(browseName.name());
        }
        return new NodeDef(nodeClass, nodeId, browseName, displayName, description, writeMask, userWriteMask,
                isAbstract, symmetric, inverseName, eventNotifier, containsNoLoops, dataType, valueRank,
                arrayDimensions, accessLevel, userAccessLevel, minimumSamplingInterval, historizing, executable,
                userExecutable, value, references);
    }

    private void readReferences(List<ReferenceDef> references) throws XMLStreamException {
        while (nextChild()) {
            if (!xml.getLocalName().equals("Reference")) {
                skipElement();
                continue;
            }
            NodeId referenceType = resolve(requiredAttribute("ReferenceType"));
            boolean forward = booleanAttribute("IsForward", true);
            String target = xml.getElementText().trim();
            references.add(new ReferenceDef(referenceType, parseExpandedNodeId(resolveText(target)), forward));
        }
    }

    /** A LocalizedText element: optional Locale attribute, the text as content; an empty locale is none. */
    private LocalizedText readLocalizedText() throws XMLStreamException {
        String locale = xml.getAttributeValue(null, "Locale");
        String text = xml.getElementText();
        return LocalizedText.of(locale == null || locale.isEmpty() ? null : locale, text);
    }

    private Variant readValue(NodeId nodeId, QualifiedName browseName) throws XMLStreamException {
        Location where = xml.getLocation();
        ValueElement element = null;
        while (nextChild()) {
            ValueElement child = readValueElement();
            if (element == null) {
                element = child;
            }
        }
        if (element == null) {
            return null;
        }
        try {
            return NodeSetValues.toVariant(element);
        } catch (NodeSetValues.Unconvertible e) {
            droppedValues.add(nodeId + " " + browseName.name() + " (line " + where.getLineNumber() + "): "
                    + e.getMessage());
            return null;
        }
    }

    /** The element at the cursor with its subtree; leaves the cursor on its end tag. */
    private ValueElement readValueElement() throws XMLStreamException {
        String name = xml.getLocalName();
        StringBuilder text = new StringBuilder();
        List<ValueElement> children = new ArrayList<>();
        while (true) {
            int event = xml.next();
            switch (event) {
                case XMLStreamConstants.START_ELEMENT -> children.add(readValueElement());
                case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE ->
                        text.append(xml.getText());
                case XMLStreamConstants.END_ELEMENT -> {
                    return new ValueElement(name, children.isEmpty() ? text.toString() : "", children);
                }
                default -> {
                    // comments and processing instructions carry no value
                }
            }
        }
    }

    // ---- cursor helpers ------------------------------------------------------------------------

    /** Moves to the next child element of the current element; false at the current element's end tag. */
    private boolean nextChild() throws XMLStreamException {
        while (true) {
            int event = xml.next();
            if (event == XMLStreamConstants.START_ELEMENT) {
                return true;
            }
            if (event == XMLStreamConstants.END_ELEMENT) {
                return false;
            }
            if (event == XMLStreamConstants.END_DOCUMENT) {
                throw error("unexpected end of document");
            }
        }
    }

    /** Skips the current element and its subtree; leaves the cursor on its end tag. */
    private void skipElement() throws XMLStreamException {
        int depth = 1;
        while (depth > 0) {
            int event = xml.next();
            if (event == XMLStreamConstants.START_ELEMENT) {
                depth++;
            } else if (event == XMLStreamConstants.END_ELEMENT) {
                depth--;
            }
        }
    }

    // ---- attribute parsing ---------------------------------------------------------------------

    private String requiredAttribute(String name) {
        String value = xml.getAttributeValue(null, name);
        if (value == null) {
            throw error("<" + xml.getLocalName() + "> without " + name + " attribute");
        }
        return value;
    }

    private boolean booleanAttribute(String name, boolean absent) {
        String value = xml.getAttributeValue(null, name);
        if (value == null) {
            return absent;
        }
        return switch (value.trim()) {
            case "true", "1" -> true;
            case "false", "0" -> false;
            default -> throw error(name + " '" + value + "' is not a boolean");
        };
    }

    private long unsignedAttribute(String name, long absent, long max) {
        String value = xml.getAttributeValue(null, name);
        if (value == null) {
            return absent;
        }
        long parsed = parseLong(name, value.trim());
        if (parsed < 0 || parsed > max) {
            throw error(name + " " + parsed + " is outside 0.." + max);
        }
        return parsed;
    }

    private int intAttribute(String name, int absent) {
        String value = xml.getAttributeValue(null, name);
        if (value == null) {
            return absent;
        }
        long parsed = parseLong(name, value.trim());
        if (parsed < Integer.MIN_VALUE || parsed > Integer.MAX_VALUE) {
            throw error(name + " " + parsed + " is outside the Int32 range");
        }
        return (int) parsed;
    }

    private double doubleAttribute(String name, double absent) {
        String value = xml.getAttributeValue(null, name);
        if (value == null) {
            return absent;
        }
        try {
            return Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw error(name + " '" + value + "' is not a number");
        }
    }

    private long parseLong(String name, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw error(name + " '" + value + "' is not a number");
        }
    }

    /** ArrayDimensions: a comma-separated list of UInt32 ({@code "0,0"}); absent or blank gives null. */
    private long[] arrayDimensions(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String[] parts = value.split(",");
        long[] dimensions = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            long dimension = parseLong("ArrayDimensions", parts[i].trim());
            if (dimension < 0 || dimension > 0xFFFFFFFFL) {
                throw error("ArrayDimensions '" + value + "' holds a value outside the UInt32 range");
            }
            dimensions[i] = dimension;
        }
        return dimensions;
    }

    /** A NodeId attribute that may be an alias. */
    private NodeId resolve(String text) {
        return parseNodeId(resolveText(text));
    }

    private String resolveText(String text) {
        NodeId alias = aliases.get(text.trim());
        return alias != null ? alias.toString() : text;
    }

    private NodeId parseNodeId(String text) {
        try {
            return NodeId.parse(text.trim());
        } catch (IllegalArgumentException e) {
            throw error("invalid NodeId: " + e.getMessage());
        }
    }

    private ExpandedNodeId parseExpandedNodeId(String text) {
        try {
            return ExpandedNodeId.parse(text.trim());
        } catch (IllegalArgumentException e) {
            throw error("invalid reference target: " + e.getMessage());
        }
    }

    /** {@code [ns:]name}: a leading decimal namespace index and a colon, else namespace 0. */
    private QualifiedName parseQualifiedName(String text) {
        int colon = text.indexOf(':');
        if (colon > 0 && text.substring(0, colon).chars().allMatch(Character::isDigit)) {
            long ns = parseLong("BrowseName", text.substring(0, colon));
            if (ns > 0xFFFF) {
                throw error("BrowseName '" + text + "' has a namespace index outside the UInt16 range");
            }
            return QualifiedName.of((int) ns, text.substring(colon + 1));
        }
        return QualifiedName.of(0, text);
    }

    private SchemaException error(String message) {
        Location location = xml.getLocation();
        return new SchemaException(source + ":" + location.getLineNumber() + ": " + message);
    }
}
