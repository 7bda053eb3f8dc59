package dev.opcua.stack.server.nodeset;

import dev.opcua.stack.server.nodeset.NodeSetDocument.Model;
import dev.opcua.stack.server.nodeset.NodeSetDocument.NodeRecord;
import dev.opcua.stack.server.nodeset.NodeSetDocument.ReferenceRecord;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads a NodeSet2 file (UANodeSet.xsd, Part 6, Annex F) with the JDK's StAX parser into a
 * {@link NodeSetDocument}, in one pass. DTDs and external entities are refused. Elements this
 * import has no use for (Extensions, RolePermissions, Category, Documentation, ServerUris) are
 * skipped.
 */
final class NodeSetParser {

    private static final Set<String> NODE_ELEMENTS = Set.of("UAObject", "UAVariable", "UAMethod", "UAView",
            "UAObjectType", "UAVariableType", "UADataType", "UAReferenceType");

    private final String file;
    private XMLStreamReader xml;

    private NodeSetParser(String file) {
        this.file = file;
    }

    static NodeSetDocument parse(NodeSetSource source) {
        if (source.data() != null) {
            NodeSetData data = source.data().get();
            if (data == null) {
                throw new NodeSetException(source.name() + ": not found");
            }
            return data.document(source.name());
        }
        try (InputStream in = source.open()) {
            return new NodeSetParser(source.name()).read(in);
        } catch (IOException e) {
            throw new NodeSetException(source.name() + ": cannot be read: " + e, e);
        }
    }

    private NodeSetDocument read(InputStream in) {
        XMLInputFactory factory = XMLInputFactory.newFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLInputFactory.IS_COALESCING, true);
        List<String> namespaceUris = new ArrayList<>();
        List<Model> models = new ArrayList<>();
        Map<String, String> aliases = new HashMap<>();
        List<NodeRecord> nodes = new ArrayList<>();
        try {
            xml = factory.createXMLStreamReader(in);
            try {
                xml.nextTag();
                if (!"UANodeSet".equals(xml.getLocalName())) {
                    throw error("the root element is <" + xml.getLocalName() + ">, not <UANodeSet>", null);
                }
                while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
                    String name = xml.getLocalName();
                    switch (name) {
                        case "NamespaceUris" -> {
                            while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
                                namespaceUris.add(xml.getElementText().trim());
                            }
                        }
                        case "Models" -> {
                            while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
                                models.add(readModel());
                            }
                        }
                        case "Aliases" -> {
                            while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
                                String alias = xml.getAttributeValue(null, "Alias");
                                aliases.put(alias, xml.getElementText().trim());
                            }
                        }
                        default -> {
                            if (NODE_ELEMENTS.contains(name)) {
                                nodes.add(readNode(name));
                            } else {
                                skip();
                            }
                        }
                    }
                }
            } finally {
                xml.close();
            }
        } catch (XMLStreamException e) {
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNumber();
            throw NodeSetException.at(file, line, null, "malformed XML: " + e.getMessage(), e);
        }
        return new NodeSetDocument(file, List.copyOf(namespaceUris), List.copyOf(models), aliases, nodes);
    }

    private Model readModel() throws XMLStreamException {
        String uri = xml.getAttributeValue(null, "ModelUri");
        String version = xml.getAttributeValue(null, "Version");
        String date = xml.getAttributeValue(null, "PublicationDate");
        if (uri == null) {
            throw error("a <" + xml.getLocalName() + "> without ModelUri", null);
        }
        List<Model> required = new ArrayList<>();
        while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
            if ("RequiredModel".equals(xml.getLocalName())) {
                required.add(readModel());
            } else {
                skip();
            }
        }
        return new Model(uri, version, date, List.copyOf(required));
    }

    private NodeRecord readNode(String kind) throws XMLStreamException {
        int line = line();
        Map<String, String> attributes = attributes();
        if (attributes.get("NodeId") == null || attributes.get("BrowseName") == null) {
            throw error("<" + kind + "> without NodeId or BrowseName", attributes.get("NodeId"));
        }
        String[] displayName = null;
        String[] description = null;
        String[] inverseName = null;
        List<ReferenceRecord> references = new ArrayList<>();
        XmlNode value = null;
        XmlNode definition = null;
        while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
            switch (xml.getLocalName()) {
                case "DisplayName" -> {
                    String[] text = localized();
                    displayName = displayName == null ? text : displayName;
                }
                case "Description" -> {
                    String[] text = localized();
                    description = description == null ? text : description;
                }
                case "InverseName" -> {
                    String[] text = localized();
                    inverseName = inverseName == null ? text : inverseName;
                }
                case "References" -> {
                    while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
                        int refLine = line();
                        String type = xml.getAttributeValue(null, "ReferenceType");
                        String isForward = xml.getAttributeValue(null, "IsForward");
                        String target = xml.getElementText().trim();
                        if (type == null || target.isEmpty()) {
                            throw NodeSetException.at(file, refLine, attributes.get("NodeId"),
                                    "a <Reference> without ReferenceType or target", null);
                        }
                        references.add(new ReferenceRecord(type, isForward == null || !isForward.trim().equals("false"),
                                target, refLine));
                    }
                }
                case "Value" -> value = firstChild(tree());
                case "Definition" -> definition = tree();
                default -> skip();
            }
        }
        return new NodeRecord(kind, line, attributes, displayName, description, inverseName, references, value,
                definition);
    }

    private static XmlNode firstChild(XmlNode value) {
        return value.children().isEmpty() ? null : value.children().get(0);
    }

    /** A LocalizedText element of the nodeset schema: {text, locale}. */
    private String[] localized() throws XMLStreamException {
        String locale = xml.getAttributeValue(null, "Locale");
        return new String[] {xml.getElementText(), locale == null || locale.isEmpty() ? null : locale};
    }

    /** The current element and everything inside it, as a tree; the reader ends on its end tag. */
    private XmlNode tree() throws XMLStreamException {
        int line = line();
        String name = xml.getLocalName();
        Map<String, String> attributes = attributes();
        List<XmlNode> children = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        while (true) {
            int event = xml.next();
            if (event == XMLStreamConstants.START_ELEMENT) {
                children.add(tree());
            } else if (event == XMLStreamConstants.CHARACTERS || event == XMLStreamConstants.CDATA
                    || event == XMLStreamConstants.SPACE) {
                text.append(xml.getText());
            } else if (event == XMLStreamConstants.END_ELEMENT) {
                break;
            }
        }
        return new XmlNode(name, attributes, children.isEmpty() ? text.toString() : "", List.copyOf(children), line);
    }

    private Map<String, String> attributes() {
        int n = xml.getAttributeCount();
        Map<String, String> attributes = n == 0 ? Map.of() : new LinkedHashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            attributes.put(xml.getAttributeLocalName(i), xml.getAttributeValue(i));
        }
        return attributes;
    }

    private void skip() throws XMLStreamException {
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

    private int line() {
        return xml.getLocation() == null ? 0 : xml.getLocation().getLineNumber();
    }

    private NodeSetException error(String problem, String nodeId) {
        return NodeSetException.at(file, line(), nodeId, problem, null);
    }
}
