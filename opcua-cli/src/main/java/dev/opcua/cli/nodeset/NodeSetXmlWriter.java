package dev.opcua.cli.nodeset;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import java.io.OutputStream;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * Writes browsed nodes as a NodeSet2 document (Part 6, Annex F): NamespaceUris, the Model, then a UAObject,
 * UAVariable, UAMethod, UAObjectType, UAVariableType, UADataType, UAReferenceType or UAView per node with its
 * attributes, its forward references and its inverse references to nodes outside the document (so that each
 * reference appears once), and the Value of variables in the XML encoding ({@link XmlValueWriter}).
 * DataTypeDefinitions are not exported: a DataType's structure layout needs the server's type dictionary.
 */
final class NodeSetXmlWriter {

    static final String NODESET_NS = "http://opcfoundation.org/UA/2011/03/UANodeSet.xsd";
    static final String TYPES_NS = "http://opcfoundation.org/UA/2008/02/Types.xsd";

    private final DocumentNamespaces namespaces;
    private final String modelUri;
    private XMLStreamWriter xml;
    private int depth;
    private int valuesLeftOut;

    NodeSetXmlWriter(DocumentNamespaces namespaces, String modelUri) {
        this.namespaces = namespaces;
        this.modelUri = modelUri;
    }

    /** How many values the last {@link #write} left out (types without an XML form here). */
    int valuesLeftOut() {
        return valuesLeftOut;
    }

    void write(List<BrowsedNode> nodes, OutputStream out) throws XMLStreamException {
        Set<NodeId> inDocument = new HashSet<>();
        nodes.forEach(n -> inDocument.add(n.nodeId()));
        // the nodes first, into nothing: every namespace they refer to gets its index before NamespaceUris is written
        xml = XMLOutputFactory.newFactory().createXMLStreamWriter(OutputStream.nullOutputStream(), "UTF-8");
        for (BrowsedNode node : nodes) {
            node(node, inDocument);
        }
        valuesLeftOut = 0;
        xml = XMLOutputFactory.newFactory().createXMLStreamWriter(out, "UTF-8");
        depth = 0;
        xml.writeStartDocument("UTF-8", "1.0");
        newline();
        xml.writeStartElement("UANodeSet");
        xml.writeDefaultNamespace(NODESET_NS);
        xml.writeNamespace("uax", TYPES_NS);
        xml.writeAttribute("LastModified", Instant.now().toString());
        depth++;
        start("NamespaceUris");
        for (String uri : namespaces.uris()) {
            start("Uri");
            xml.writeCharacters(uri);
            xml.writeEndElement();
            depth--;
        }
        end();
        start("Models");
        start("Model");
        xml.writeAttribute("ModelUri", modelUri);
        empty("RequiredModel");
        xml.writeAttribute("ModelUri", "http://opcfoundation.org/UA/");
        end();
        end();
        for (BrowsedNode node : nodes) {
            node(node, inDocument);
        }
        depth--;
        newline();
        xml.writeEndElement();
        newline();
        xml.writeEndDocument();
        xml.flush();
    }

    private void node(BrowsedNode node, Set<NodeId> inDocument) throws XMLStreamException {
        start("UA" + node.nodeClass().name());
        xml.writeAttribute("NodeId", namespaces.text(node.nodeId()));
        QualifiedName browseName = (QualifiedName) node.attribute(AttributeIds.BrowseName).value();
        xml.writeAttribute("BrowseName", namespaces.index(browseName.namespaceIndex()) + ":" + browseName.name());
        attribute(node, AttributeIds.DataType, v -> namespaces.text((NodeId) v.value()), "DataType");
        attribute(node, AttributeIds.ValueRank, v -> v.value().toString(), "ValueRank");
        attribute(node, AttributeIds.ArrayDimensions, NodeSetXmlWriter::dimensions, "ArrayDimensions");
        attribute(node, AttributeIds.AccessLevel, v -> v.value().toString(), "AccessLevel");
        attribute(node, AttributeIds.MinimumSamplingInterval, v -> v.value().toString(), "MinimumSamplingInterval");
        attribute(node, AttributeIds.Historizing, v -> v.value().toString(), "Historizing");
        attribute(node, AttributeIds.EventNotifier, v -> v.value().toString(), "EventNotifier");
        attribute(node, AttributeIds.IsAbstract, v -> v.value().toString(), "IsAbstract");
        attribute(node, AttributeIds.Symmetric, v -> v.value().toString(), "Symmetric");
        attribute(node, AttributeIds.ContainsNoLoops, v -> v.value().toString(), "ContainsNoLoops");
        attribute(node, AttributeIds.Executable, v -> v.value().toString(), "Executable");
        localized("DisplayName", node.attribute(AttributeIds.DisplayName));
        localized("Description", node.attribute(AttributeIds.Description));
        localized("InverseName", node.attribute(AttributeIds.InverseName));
        start("References");
        for (BrowsedNode.Reference reference : node.references()) {
            NodeId target = namespaces.local(reference.target());
            if (target == null || !reference.forward() && inDocument.contains(target)) {
                continue; // another server's node, or written as the other node's forward reference
            }
            start("Reference");
            xml.writeAttribute("ReferenceType", namespaces.text(reference.referenceType()));
            if (!reference.forward()) {
                xml.writeAttribute("IsForward", "false");
            }
            xml.writeCharacters(namespaces.text(target));
            xml.writeEndElement();
            depth--;
        }
        end();
        Variant value = node.attribute(AttributeIds.Value);
        if (value != null && !value.isNull()) {
            XmlValueWriter values = new XmlValueWriter(xml, namespaces);
            if (values.canWrite(value)) {
                start("Value");
                newline();
                values.write(value);
                end();
            } else {
                valuesLeftOut++;
            }
        }
        end();
    }

    private void attribute(BrowsedNode node, int attributeId, Function<Variant, String> text,
            String name) throws XMLStreamException {
        Variant v = node.attribute(attributeId);
        if (v != null && !v.isNull()) {
            xml.writeAttribute(name, text.apply(v));
        }
    }

    private static String dimensions(Variant v) {
        if (v.value() instanceof long[] dims) {
            StringBuilder sb = new StringBuilder();
            for (long d : dims) {
                sb.append(sb.length() == 0 ? "" : ",").append(d);
            }
            return sb.toString();
        }
        return String.valueOf(v.value());
    }

    private void localized(String element, Variant value) throws XMLStreamException {
        if (value == null || !(value.value() instanceof LocalizedText text) || text.text() == null) {
            return;
        }
        start(element);
        if (text.locale() != null && !text.locale().isEmpty()) {
            xml.writeAttribute("Locale", text.locale());
        }
        xml.writeCharacters(text.text());
        xml.writeEndElement();
        depth--;
    }

    private void start(String element) throws XMLStreamException {
        newline();
        xml.writeStartElement(element);
        depth++;
    }

    private void empty(String element) throws XMLStreamException {
        newline();
        xml.writeEmptyElement(element);
    }

    private void end() throws XMLStreamException {
        depth--;
        newline();
        xml.writeEndElement();
    }

    private void newline() throws XMLStreamException {
        xml.writeCharacters("\n" + "  ".repeat(Math.max(0, depth)));
    }
}
