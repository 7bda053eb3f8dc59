package dev.opcua.stack.server.nodeset;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * The JDK's StAX writer with each element on a line of its own, indented by its depth, so that an
 * exported nodeset reads (and diffs) like the files people write. Text is written as given: an
 * element with text gets no line breaks inside, so values keep their whitespace.
 *
 * <p>The JDK's own implementation is used whatever StAX provider the class path holds, so that the
 * same address space always gives the same bytes.
 */
final class IndentedXmlWriter {

    private static final String INDENT = "  ";

    private final XMLStreamWriter xml;
    private int depth;
    /** Per open element: whether it has a child element, whose end tag then goes on a line of its own. */
    private boolean[] hasChildren = new boolean[16];

    IndentedXmlWriter(OutputStream out) throws XMLStreamException {
        this.xml = XMLOutputFactory.newDefaultFactory().createXMLStreamWriter(out, StandardCharsets.UTF_8.name());
    }

    void startDocument() throws XMLStreamException {
        xml.writeStartDocument("utf-8", "1.0");
    }

    /** Starts an element in the default namespace in scope. */
    void start(String localName) throws XMLStreamException {
        newLine();
        xml.writeStartElement(localName);
        push();
    }

    /** Starts an element in {@code namespaceUri}, written with {@code prefix} (declared by an ancestor). */
    void start(String prefix, String localName, String namespaceUri) throws XMLStreamException {
        newLine();
        xml.writeStartElement(prefix, localName, namespaceUri);
        push();
    }

    /** An element without content, in the default namespace in scope; its attributes may follow. */
    void empty(String localName) throws XMLStreamException {
        newLine();
        xml.writeEmptyElement(localName);
    }

    /** An element without content in {@code namespaceUri}, written with {@code prefix}; its attributes may follow. */
    void empty(String prefix, String localName, String namespaceUri) throws XMLStreamException {
        newLine();
        xml.writeEmptyElement(prefix, localName, namespaceUri);
    }

    void defaultNamespace(String namespaceUri) throws XMLStreamException {
        xml.writeDefaultNamespace(namespaceUri);
    }

    void namespace(String prefix, String namespaceUri) throws XMLStreamException {
        xml.writeNamespace(prefix, namespaceUri);
    }

    void attribute(String name, String value) throws XMLStreamException {
        xml.writeAttribute(name, value);
    }

    /**
     * Text content. A carriage return is written as a character reference: XML parsers turn a literal
     * one into a line feed, and a string value must come back as it was.
     */
    void text(String text) throws XMLStreamException {
        int from = 0;
        for (int cr = text.indexOf('\r'); cr >= 0; cr = text.indexOf('\r', from)) {
            xml.writeCharacters(text.substring(from, cr));
            xml.writeEntityRef("#13");
            from = cr + 1;
        }
        xml.writeCharacters(from == 0 ? text : text.substring(from));
    }

    /** An element in the default namespace holding only {@code text}. */
    void textElement(String localName, String text) throws XMLStreamException {
        start(localName);
        text(text);
        end();
    }

    void end() throws XMLStreamException {
        depth--;
        if (hasChildren[depth]) {
            xml.writeCharacters("\n" + INDENT.repeat(depth));
        }
        xml.writeEndElement();
    }

    /**
     * Writes an element tree (a value, {@link XmlValueWriter}): a name "p:Local" has the prefix p, which
     * {@code prefixes} maps to its namespace; an attribute "xmlns" declares the default namespace of
     * the element and those below it.
     */
    void write(XmlNode node, Map<String, String> prefixes) throws XMLStreamException {
        String name = node.name();
        int colon = name.indexOf(':');
        boolean empty = node.children().isEmpty() && node.text().isEmpty();
        if (colon > 0) {
            String prefix = name.substring(0, colon);
            if (empty) {
                empty(prefix, name.substring(colon + 1), prefixes.get(prefix));
            } else {
                start(prefix, name.substring(colon + 1), prefixes.get(prefix));
            }
        } else if (empty) {
            empty(name);
        } else {
            start(name);
        }
        for (Map.Entry<String, String> attribute : node.attributes().entrySet()) {
            if (attribute.getKey().equals("xmlns")) {
                defaultNamespace(attribute.getValue());
            } else {
                attribute(attribute.getKey(), attribute.getValue());
            }
        }
        if (empty) {
            return;
        }
        if (node.children().isEmpty()) {
            text(node.text());
        }
        for (XmlNode child : node.children()) {
            write(child, prefixes);
        }
        end();
    }

    void finish() throws XMLStreamException {
        xml.writeCharacters("\n");
        xml.writeEndDocument();
        xml.flush();
        xml.close();
    }

    private void newLine() throws XMLStreamException {
        if (depth > 0) {
            hasChildren[depth - 1] = true;
        }
        xml.writeCharacters("\n" + INDENT.repeat(depth));
    }

    private void push() {
        if (depth == hasChildren.length) {
            hasChildren = Arrays.copyOf(hasChildren, depth * 2);
        }
        hasChildren[depth++] = false;
    }
}
