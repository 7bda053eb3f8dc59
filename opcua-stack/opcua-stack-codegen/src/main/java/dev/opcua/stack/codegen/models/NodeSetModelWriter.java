package dev.opcua.stack.codegen.models;

import dev.opcua.stack.codegen.emit.GeneratedFile;
import dev.opcua.stack.codegen.emit.JavaWriter;
import dev.opcua.stack.codegen.schema.SchemaException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads a NodeSet2 file (Part 6, Annex F) with StAX and writes a Java class that builds the same
 * document through {@code dev.opcua.stack.server.nodeset.NodeSetData.Builder}: namespaces, models
 * and their RequiredModels, aliases, and every node with its attributes, first DisplayName,
 * Description and InverseName, references, Value and Definition, in file order and with the file's
 * line numbers (they appear in the import's messages). It keeps exactly what the server's XML parser
 * keeps, so that the generated model imports as the file does.
 *
 * <p>The nodes are split into methods of at most {@link #NODES_PER_METHOD} nodes and about
 * {@link #CHARS_PER_METHOD} characters of source, well below the 64 KB limit of a method's bytecode.
 */
public final class NodeSetModelWriter {

    /** The package of the generated models (in opcua-stack-server). */
    public static final String PACKAGE = "dev.opcua.stack.server.models";
    static final int NODES_PER_METHOD = 50;
    static final int CHARS_PER_METHOD = 24_000;

    private static final Set<String> NODE_ELEMENTS = Set.of("UAObject", "UAVariable", "UAMethod", "UAView",
            "UAObjectType", "UAVariableType", "UADataType", "UAReferenceType");

    private final String className;
    private final String fileName;
    private XMLStreamReader xml;
    private final StringBuilder header = new StringBuilder();
    private final StringBuilder methods = new StringBuilder();
    private StringBuilder method = new StringBuilder();
    private int methodNodes;
    private int methodCount;
    private int nodeCount;

    private NodeSetModelWriter(String className, String fileName) {
        this.className = className;
        this.fileName = fileName;
    }

    /** The generated class {@code PACKAGE.className} for the NodeSet2 file. */
    public static GeneratedFile write(Path file, String className, String description) throws IOException {
        NodeSetModelWriter writer = new NodeSetModelWriter(className, file.getFileName().toString());
        try (InputStream in = Files.newInputStream(file)) {
            writer.read(in);
        } catch (XMLStreamException e) {
            throw new SchemaException(file + ": malformed XML: " + e.getMessage());
        }
        return new GeneratedFile(PACKAGE.replace('.', '/') + "/" + className + ".java", writer.render(description));
    }

    private void read(InputStream in) throws XMLStreamException {
        XMLInputFactory factory = XMLInputFactory.newFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLInputFactory.IS_COALESCING, true);
        xml = factory.createXMLStreamReader(in);
        try {
            xml.nextTag();
            if (!"UANodeSet".equals(xml.getLocalName())) {
                throw new SchemaException(fileName + ": the root element is not <UANodeSet>");
            }
            while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
                String name = xml.getLocalName();
                switch (name) {
                    case "NamespaceUris" -> {
                        while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
                            header.append("        b.namespaceUris(").append(literal(xml.getElementText().trim()))
                                    .append(");\n");
                        }
                    }
                    case "Models" -> {
                        while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
                            readModel("model");
                        }
                    }
                    case "Aliases" -> {
                        while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
                            String alias = xml.getAttributeValue(null, "Alias");
                            header.append("        b.alias(").append(literal(alias)).append(", ")
                                    .append(literal(xml.getElementText().trim())).append(");\n");
                        }
                    }
                    default -> {
                        if (NODE_ELEMENTS.contains(name)) {
                            readNode(name);
                        } else {
                            skip();
                        }
                    }
                }
            }
        } finally {
            xml.close();
        }
        endMethod();
    }

    private void readModel(String call) throws XMLStreamException {
        header.append("        b.").append(call).append('(')
                .append(literal(xml.getAttributeValue(null, "ModelUri"))).append(", ")
                .append(literal(xml.getAttributeValue(null, "Version"))).append(", ")
                .append(literal(xml.getAttributeValue(null, "PublicationDate"))).append(");\n");
        while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
            if ("RequiredModel".equals(xml.getLocalName()) && call.equals("model")) {
                readModel("requiredModel");
            } else {
                skip();
            }
        }
    }

    private void readNode(String kind) throws XMLStreamException {
        StringBuilder s = new StringBuilder();
        s.append("        b.node(").append(literal(kind)).append(", ").append(line());
        for (int i = 0; i < xml.getAttributeCount(); i++) {
            s.append(", ").append(literal(xml.getAttributeLocalName(i))).append(", ")
                    .append(literal(xml.getAttributeValue(i)));
        }
        s.append(")");
        boolean displayName = false;
        boolean description = false;
        boolean inverseName = false;
        while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
            switch (xml.getLocalName()) {
                case "DisplayName" -> {
                    String localized = localized();
                    if (!displayName) {
                        s.append("\n            .displayName(").append(localized).append(')');
                        displayName = true;
                    }
                }
                case "Description" -> {
                    String localized = localized();
                    if (!description) {
                        s.append("\n            .description(").append(localized).append(')');
                        description = true;
                    }
                }
                case "InverseName" -> {
                    String localized = localized();
                    if (!inverseName) {
                        s.append("\n            .inverseName(").append(localized).append(')');
                        inverseName = true;
                    }
                }
                case "References" -> {
                    while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
                        String type = xml.getAttributeValue(null, "ReferenceType");
                        String isForward = xml.getAttributeValue(null, "IsForward");
                        String target = xml.getElementText().trim();
                        s.append("\n            .reference(").append(literal(type)).append(", ")
                                .append(isForward == null || !isForward.trim().equals("false")).append(", ")
                                .append(literal(target)).append(')');
                    }
                }
                case "Value" -> {
                    // like the server's parser: the first child of <Value>, or no value
                    String tree = valueTree();
                    if (tree != null) {
                        s.append("\n            .value(").append(tree).append(')');
                    }
                }
                case "Definition" -> s.append("\n            .definition(").append(tree(3)).append(')');
                default -> skip();
            }
        }
        s.append(";\n");
        if (methodNodes >= NODES_PER_METHOD || method.length() + s.length() > CHARS_PER_METHOD && methodNodes > 0) {
            endMethod();
        }
        method.append(s);
        methodNodes++;
        nodeCount++;
    }

    /** The first element inside {@code <Value>} as an expression, or null; the reader ends on {@code </Value>}. */
    private String valueTree() throws XMLStreamException {
        String first = null;
        while (true) {
            int event = xml.next();
            if (event == XMLStreamConstants.START_ELEMENT) {
                String tree = tree(3);
                first = first == null ? tree : first;
            } else if (event == XMLStreamConstants.END_ELEMENT) {
                return first;
            }
        }
    }

    /** The current element and everything inside it as an {@code element(...)} expression. */
    private String tree(int depth) throws XMLStreamException {
        int line = line();
        String name = xml.getLocalName();
        StringBuilder attributes = new StringBuilder();
        for (int i = 0; i < xml.getAttributeCount(); i++) {
            attributes.append(i == 0 ? "" : ", ").append(literal(xml.getAttributeLocalName(i))).append(", ")
                    .append(literal(xml.getAttributeValue(i)));
        }
        StringBuilder children = new StringBuilder();
        StringBuilder text = new StringBuilder();
        String indent = "\n" + "    ".repeat(depth + 1);
        while (true) {
            int event = xml.next();
            if (event == XMLStreamConstants.START_ELEMENT) {
                children.append(',').append(indent).append(tree(depth + 1));
            } else if (event == XMLStreamConstants.CHARACTERS || event == XMLStreamConstants.CDATA
                    || event == XMLStreamConstants.SPACE) {
                text.append(xml.getText());
            } else if (event == XMLStreamConstants.END_ELEMENT) {
                break;
            }
        }
        return "element(" + literal(name) + ", " + line + ", "
                + (children.length() == 0 ? literal(text.toString()) : "null") + ", "
                + (attributes.length() == 0 ? "NONE" : "new String[] {" + attributes + "}") + children + ")";
    }

    private String localized() throws XMLStreamException {
        String locale = xml.getAttributeValue(null, "Locale");
        String text = xml.getElementText();
        return literal(text) + ", " + literal(locale == null || locale.isEmpty() ? null : locale);
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

    private void endMethod() {
        if (methodNodes == 0) {
            return;
        }
        methods.append("\n    private static void nodes").append(methodCount++)
                .append("(NodeSetData.Builder b) {\n").append(method).append("    }\n");
        method = new StringBuilder();
        methodNodes = 0;
    }

    private String render(String description) {
        StringBuilder s = new StringBuilder();
        s.append(JavaWriter.HEADER).append('\n');
        s.append("package ").append(PACKAGE).append(";\n\n");
        s.append("import static dev.opcua.stack.server.nodeset.NodeSetData.element;\n\n");
        s.append("import dev.opcua.stack.server.nodeset.NodeSetData;\n\n");
        s.append("/**\n * ").append(description).append(", built from ").append(fileName).append(" (")
                .append(nodeCount).append(" nodes).\n */\n");
        s.append("public final class ").append(className).append(" {\n\n");
        s.append("    /** The NodeSet2 file this class was generated from. */\n");
        s.append("    public static final String FILE = ").append(literal(fileName)).append(";\n\n");
        s.append("    private static final String[] NONE = {};\n\n");
        s.append("    private ").append(className).append("() {\n    }\n\n");
        s.append("    /** The nodeset as read from " + fileName + ". */\n");
        s.append("    public static NodeSetData build() {\n");
        s.append("        NodeSetData.Builder b = NodeSetData.builder();\n");
        s.append(header);
        for (int i = 0; i < methodCount; i++) {
            s.append("        nodes").append(i).append("(b);\n");
        }
        s.append("        return b.build();\n    }\n");
        s.append(methods);
        s.append("}\n");
        return s.toString();
    }

    /** A Java string literal, or {@code null}; non-ASCII characters escaped. */
    static String literal(String value) {
        if (value == null) {
            return "null";
        }
        StringBuilder s = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> s.append("\\\"");
                case '\\' -> s.append("\\\\");
                case '\n' -> s.append("\\n");
                case '\r' -> s.append("\\r");
                case '\t' -> s.append("\\t");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        s.append(String.format("\\u%04x", (int) c));
                    } else {
                        s.append(c);
                    }
                }
            }
        }
        return s.append('"').toString();
    }
}
