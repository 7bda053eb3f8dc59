package dev.opcua.stack.codegen.schema;

import java.util.List;

/**
 * An element inside a node's {@code <Value>}: the XML encoding of a Variant (Part 6, 5.3), kept as a
 * small tree until {@link NodeSetValues} converts it.
 *
 * @param name the local name (the namespace is that of the UA types, Part 6, 5.3.1)
 * @param text the text content, or "" for an element with child elements
 * @param children the child elements in document order
 */
public record ValueElement(String name, String text, List<ValueElement> children) {

    public ValueElement {
        children = List.copyOf(children);
    }

    /** The first child of this name, or null. */
    public ValueElement child(String childName) {
        for (ValueElement child : children) {
            if (child.name.equals(childName)) {
                return child;
            }
        }
        return null;
    }

    /** The trimmed text of the first child of this name, or null when there is no such child. */
    public String childText(String childName) {
        ValueElement child = child(childName);
        return child == null ? null : child.text.trim();
    }
}
