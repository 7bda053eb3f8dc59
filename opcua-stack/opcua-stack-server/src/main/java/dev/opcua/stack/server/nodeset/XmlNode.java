package dev.opcua.stack.server.nodeset;

import java.util.List;
import java.util.Map;

/**
 * An element of a nodeset's Value or Definition, kept as a small tree (local names, no namespaces)
 * until the types it refers to are known.
 *
 * @param line line of the start tag, for messages
 */
record XmlNode(String name, Map<String, String> attributes, String text, List<XmlNode> children, int line) {

    /** The first child with this local name, or null. */
    XmlNode child(String childName) {
        for (XmlNode c : children) {
            if (c.name.equals(childName)) {
                return c;
            }
        }
        return null;
    }

    /** The text of the first child with this name, or null when there is none. */
    String childText(String childName) {
        XmlNode c = child(childName);
        return c == null ? null : c.text;
    }

    String attribute(String attributeName) {
        return attributes.get(attributeName);
    }

    /** The element written back as XML, for a body kept undecoded. */
    String toXml() {
        StringBuilder s = new StringBuilder();
        write(s);
        return s.toString();
    }

    private void write(StringBuilder s) {
        s.append('<').append(name);
        attributes.forEach((k, v) -> s.append(' ').append(k).append("=\"").append(escape(v)).append('"'));
        if (children.isEmpty() && text.isEmpty()) {
            s.append("/>");
            return;
        }
        s.append('>');
        if (children.isEmpty()) {
            s.append(escape(text));
        }
        for (XmlNode c : children) {
            c.write(s);
        }
        s.append("</").append(name).append('>');
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
