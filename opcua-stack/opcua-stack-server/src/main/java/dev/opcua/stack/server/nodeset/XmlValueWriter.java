package dev.opcua.stack.server.nodeset;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.builtin.XmlElement;
import java.io.StringReader;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Turns values into their XML encoding (Part 6, 5.3), the mirror image of {@link XmlValueReader}:
 * scalars and one-dimensional arrays ({@code ListOf...}) of every built-in type but DataValue and
 * DiagnosticInfo, NodeIds, ExpandedNodeIds and QualifiedNames with the file's namespace indexes,
 * ExtensionObjects through {@link StructureXmlWriter}.
 *
 * <p>The result is an element tree, built whole before anything is written, so that a value that
 * cannot be encoded (a matrix, a structure of unknown layout) leaves its node without a Value instead
 * of half an element. Element names carry the prefix {@link #TYPES} of the standard's types schema;
 * names without one are in the default namespace their tree declares.
 */
final class XmlValueWriter {

    /** The namespace of the built-in types' XML schema (Part 6, 5.3), written with the prefix "uax". */
    static final String TYPES_NAMESPACE = "http://opcfoundation.org/UA/2008/02/Types.xsd";
    static final String TYPES = "uax:";

    private final ExportScope scope;
    private final StructureXmlWriter structures;

    XmlValueWriter(ExportScope scope) {
        this.scope = scope;
        this.structures = new StructureXmlWriter(this, scope);
    }

    /**
     * The element inside {@code <Value>}.
     *
     * @throws XmlValueReader.UnsupportedValueException saying why when the value has no XML encoding here
     */
    XmlNode toXml(Variant value) {
        if (value.isMatrix()) {
            throw XmlValueReader.unsupported("multi-dimensional arrays (Matrix) are not exported", null);
        }
        BuiltinType type = value.type();
        if (type == BuiltinType.DataValue || type == BuiltinType.DiagnosticInfo) {
            throw XmlValueReader.unsupported(type + " values are not exported", null);
        }
        if (value.isArray()) {
            return element(TYPES + "ListOf" + type.name(), array(type, value.value()));
        }
        return scalar(TYPES + type.name(), type, value.value());
    }

    /** One element per array element, each named by the type. */
    List<XmlNode> array(BuiltinType type, Object array) {
        int length = Array.getLength(array);
        List<XmlNode> items = new ArrayList<>(length);
        for (int i = 0; i < length; i++) {
            items.add(scalar(TYPES + type.name(), type, Array.get(array, i)));
        }
        return items;
    }

    /** An element named {@code name} whose content is one {@code type} value (Part 6, 5.3.1). */
    XmlNode scalar(String name, BuiltinType type, Object value) {
        return switch (type) {
            case Boolean, SByte, Byte, Int16, UInt16, Int32, UInt32, Int64 -> text(name, String.valueOf(value));
            case UInt64 -> text(name, Long.toUnsignedString((Long) value));
            case Float -> text(name, floatText((Float) value));
            case Double -> text(name, doubleText((Double) value));
            case String -> text(name, value == null ? "" : (String) value);
            case DateTime -> text(name, dateTimeText((DateTime) value));
            case Guid -> element(name, text(TYPES + "String", String.valueOf((UUID) value)));
            case ByteString -> text(name, byteStringText((ByteString) value));
            case XmlElement -> xmlElement(name, (XmlElement) value);
            case NodeId -> nodeId(name, value == null ? NodeId.NULL : (NodeId) value);
            case ExpandedNodeId -> expandedNodeId(name, value == null ? ExpandedNodeId.NULL : (ExpandedNodeId) value);
            case StatusCode -> element(name, text(TYPES + "Code",
                    String.valueOf(value == null ? 0 : ((StatusCode) value).unsignedValue())));
            case QualifiedName -> qualifiedName(name, value == null ? QualifiedName.NULL : (QualifiedName) value);
            case LocalizedText -> localizedText(name, value == null ? LocalizedText.NULL : (LocalizedText) value);
            case ExtensionObject -> structures.extensionObject(name,
                    value == null ? ExtensionObject.NULL : (ExtensionObject) value);
            case Variant -> variant(name, value == null ? Variant.NULL : (Variant) value);
            default -> throw XmlValueReader.unsupported(type + " values are not exported", null);
        };
    }

    /** A Variant element: {@code <Value>} holding one typed element, empty for the null Variant (Part 6, 5.3.1.17). */
    private XmlNode variant(String name, Variant value) {
        return value.isNull() ? element(name) : element(name, element(TYPES + "Value", toXml(value)));
    }

    private XmlNode nodeId(String name, NodeId id) {
        return id.isNull() ? element(name) : element(name, text(TYPES + "Identifier", scope.nodeId(id)));
    }

    private XmlNode expandedNodeId(String name, ExpandedNodeId id) {
        if (id.isNull()) {
            return element(name);
        }
        String text = id.isLocal() ? scope.nodeId(id.nodeId()) : id.toString();
        return element(name, text(TYPES + "Identifier", text));
    }

    private XmlNode qualifiedName(String name, QualifiedName value) {
        List<XmlNode> children = new ArrayList<>(2);
        int ns = scope.fileIndex(value.namespaceIndex());
        if (ns != 0) {
            children.add(text(TYPES + "NamespaceIndex", String.valueOf(ns)));
        }
        if (value.name() != null) {
            children.add(text(TYPES + "Name", value.name()));
        }
        return element(name, children);
    }

    XmlNode localizedText(String name, LocalizedText value) {
        List<XmlNode> children = new ArrayList<>(2);
        if (value.locale() != null) {
            children.add(text(TYPES + "Locale", value.locale()));
        }
        if (value.text() != null) {
            children.add(text(TYPES + "Text", value.text()));
        }
        return element(name, children);
    }

    private static XmlNode xmlElement(String name, XmlElement value) {
        String fragment = value == null || value.isNull() ? "" : value.fragment();
        XmlNode parsed = parseFragment(fragment);
        return parsed != null ? element(name, parsed) : text(name, fragment);
    }

    /** xs:float, with xs:double's spellings of the infinities and NaN. */
    static String floatText(float value) {
        return Float.isNaN(value) || Float.isInfinite(value) ? doubleText(value)
                : integral(value, Float.toString(value));
    }

    /** xs:double: INF, -INF and NaN spelled as XML Schema spells them; integral values without ".0". */
    static String doubleText(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "INF" : "-INF";
        }
        return integral(value, Double.toString(value));
    }

    private static String integral(double value, String text) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 && !(value == 0 && 1 / value < 0)
                ? Long.toString((long) value) : text;
    }

    /** xs:dateTime in UTC; the null DateTime is the empty element the reader takes for it. */
    private static String dateTimeText(DateTime value) {
        if (value == null || value.isNull()) {
            return "";
        }
        if (value.equals(DateTime.MAX_VALUE)) {
            return "9999-12-31T23:59:59Z";
        }
        return value.toInstant().toString();
    }

    private static String byteStringText(ByteString value) {
        byte[] bytes = value == null ? null : value.unsafeBytes();
        return bytes == null ? "" : Base64.getEncoder().encodeToString(bytes);
    }

    /**
     * An XML fragment (an XmlElement value, an undecoded body) as an element tree with local names, as
     * the reader keeps it; null when it is not one well-formed element.
     */
    static XmlNode parseFragment(String fragment) {
        if (fragment == null || fragment.isBlank()) {
            return null;
        }
        XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLInputFactory.IS_COALESCING, true);
        try {
            XMLStreamReader in = factory.createXMLStreamReader(new StringReader(fragment));
            try {
                in.nextTag();
                XmlNode root = tree(in);
                while (in.hasNext()) {
                    int event = in.next();
                    if (event == XMLStreamConstants.START_ELEMENT) {
                        return null; // more than one element
                    }
                }
                return root;
            } finally {
                in.close();
            }
        } catch (XMLStreamException e) {
            return null;
        }
    }

    private static XmlNode tree(XMLStreamReader in) throws XMLStreamException {
        String name = in.getLocalName();
        Map<String, String> attributes = new LinkedHashMap<>();
        for (int i = 0; i < in.getAttributeCount(); i++) {
            attributes.put(in.getAttributeLocalName(i), in.getAttributeValue(i));
        }
        List<XmlNode> children = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        while (true) {
            int event = in.next();
            if (event == XMLStreamConstants.START_ELEMENT) {
                children.add(tree(in));
            } else if (event == XMLStreamConstants.CHARACTERS || event == XMLStreamConstants.CDATA
                    || event == XMLStreamConstants.SPACE) {
                text.append(in.getText());
            } else if (event == XMLStreamConstants.END_ELEMENT) {
                break;
            }
        }
        return new XmlNode(name, attributes, children.isEmpty() ? text.toString() : "", List.copyOf(children), 0);
    }

    static XmlNode text(String name, String text) {
        return new XmlNode(name, Map.of(), text, List.of(), 0);
    }

    static XmlNode element(String name, XmlNode... children) {
        return new XmlNode(name, Map.of(), "", List.of(children), 0);
    }

    static XmlNode element(String name, List<XmlNode> children) {
        return new XmlNode(name, Map.of(), "", List.copyOf(children), 0);
    }
}
