package dev.opcua.stack.codegen.schema;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.namespace.QName;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * Reads an OPC Binary type dictionary (Part 3, Annex C), such as Opc.Ua.Types.bsd, into a {@link TypeDictionary}.
 *
 * <p>Only the structure of the dictionary is read; documentation elements are ignored.
 */
public final class BsdReader {

    /** Namespace of the OPC Binary schema elements and of its primitive types ({@code opc:}). */
    public static final String BINARY_SCHEMA_NS = "http://opcfoundation.org/BinarySchema/";

    private BsdReader() {
    }

    /** Reads the dictionary in {@code file}. */
    public static TypeDictionary read(Path file) throws IOException {
        Document document;
        try (InputStream in = Files.newInputStream(file)) {
            document = newBuilder().parse(in, file.toUri().toString());
        } catch (SAXException e) {
            throw new SchemaException(file + ": not a well-formed type dictionary: " + e.getMessage(), e);
        }
        return read(file.toString(), document);
    }

    private static DocumentBuilder newBuilder() {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setXIncludeAware(false);
            factory.setExpandEntityReferences(false);
            return factory.newDocumentBuilder();
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("XML parser unavailable", e);
        }
    }

    private static TypeDictionary read(String source, Document document) {
        Element root = document.getDocumentElement();
        if (!BINARY_SCHEMA_NS.equals(root.getNamespaceURI()) || !"TypeDictionary".equals(root.getLocalName())) {
            throw new SchemaException(source + ": root element is not opc:TypeDictionary");
        }
        String targetNamespace = root.getAttribute("TargetNamespace");
        List<StructuredTypeDef> structures = new ArrayList<>();
        List<EnumeratedTypeDef> enums = new ArrayList<>();
        List<String> opaques = new ArrayList<>();
        for (Element element : children(root)) {
            switch (element.getLocalName()) {
                case "StructuredType" -> structures.add(readStructure(source, element));
                case "EnumeratedType" -> enums.add(readEnumeration(source, element));
                case "OpaqueType" -> opaques.add(requiredAttribute(source, element, "Name"));
                case "Import", "Documentation" -> {
                    // nothing to read
                }
                default -> throw new SchemaException(
                        source + ": unsupported element opc:" + element.getLocalName() + " in the type dictionary");
            }
        }
        return new TypeDictionary(targetNamespace, structures, enums, opaques);
    }

    private static StructuredTypeDef readStructure(String source, Element element) {
        String name = requiredAttribute(source, element, "Name");
        QName baseType = element.hasAttribute("BaseType")
                ? resolve(source, element, element.getAttribute("BaseType"))
                : null;
        List<FieldDef> fields = new ArrayList<>();
        for (Element child : children(element)) {
            switch (child.getLocalName()) {
                case "Field" -> fields.add(new FieldDef(
                        requiredAttribute(source, child, "Name"),
                        resolve(source, child, requiredAttribute(source, child, "TypeName")),
                        optionalAttribute(child, "LengthField"),
                        optionalAttribute(child, "SourceType"),
                        optionalAttribute(child, "SwitchField"),
                        optionalAttribute(child, "Length")));
                case "Documentation" -> {
                    // not used
                }
                default -> throw new SchemaException(
                        source + ": unsupported element opc:" + child.getLocalName() + " in structure " + name);
            }
        }
        return new StructuredTypeDef(name, baseType, fields);
    }

    private static EnumeratedTypeDef readEnumeration(String source, Element element) {
        String name = requiredAttribute(source, element, "Name");
        int lengthInBits = parseInt(source, name, requiredAttribute(source, element, "LengthInBits"));
        boolean optionSet = "true".equals(element.getAttribute("IsOptionSet"));
        List<EnumValueDef> values = new ArrayList<>();
        for (Element child : children(element)) {
            switch (child.getLocalName()) {
                case "EnumeratedValue" -> {
                    String valueName = requiredAttribute(source, child, "Name");
                    String text = requiredAttribute(source, child, "Value");
                    long value;
                    try {
                        value = Long.parseLong(text);
                    } catch (NumberFormatException e) {
                        throw new SchemaException(
                                source + ": value '" + text + "' of " + name + "." + valueName + " is not a number", e);
                    }
                    values.add(new EnumValueDef(valueName, value));
                }
                case "Documentation" -> {
                    // not used
                }
                default -> throw new SchemaException(
                        source + ": unsupported element opc:" + child.getLocalName() + " in enumeration " + name);
            }
        }
        return new EnumeratedTypeDef(name, lengthInBits, optionSet, values);
    }

    private static QName resolve(String source, Element context, String prefixedName) {
        int colon = prefixedName.indexOf(':');
        String prefix = colon < 0 ? null : prefixedName.substring(0, colon);
        String local = prefixedName.substring(colon + 1);
        String namespace = context.lookupNamespaceURI(prefix);
        if (namespace == null) {
            throw new SchemaException(source + ": type name '" + prefixedName + "' uses an undeclared prefix");
        }
        return new QName(namespace, local);
    }

    private static List<Element> children(Element parent) {
        List<Element> children = new ArrayList<>();
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element child && BINARY_SCHEMA_NS.equals(child.getNamespaceURI())) {
                children.add(child);
            }
        }
        return children;
    }

    private static String requiredAttribute(String source, Element element, String attribute) {
        if (!element.hasAttribute(attribute)) {
            throw new SchemaException(source + ": opc:" + element.getLocalName() + " without " + attribute + " attribute");
        }
        return element.getAttribute(attribute);
    }

    private static String optionalAttribute(Element element, String attribute) {
        return element.hasAttribute(attribute) ? element.getAttribute(attribute) : null;
    }

    private static int parseInt(String source, String name, String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new SchemaException(source + ": LengthInBits '" + text + "' of " + name + " is not a number", e);
        }
    }
}
