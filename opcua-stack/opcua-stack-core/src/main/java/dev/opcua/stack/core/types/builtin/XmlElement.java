package dev.opcua.stack.core.types.builtin;

import java.util.Objects;

/** An XML fragment, encoded as a UTF-8 string with Int32 length (Part 6, 5.2.2.8). Null is {@link #NULL}. */
public final class XmlElement {

    public static final XmlElement NULL = new XmlElement(null);

    private final String fragment;

    private XmlElement(String fragment) {
        this.fragment = fragment;
    }

    public static XmlElement of(String fragment) {
        return fragment == null ? NULL : new XmlElement(fragment);
    }

    /** The XML text, or null for the null element. */
    public String fragment() {
        return fragment;
    }

    public boolean isNull() {
        return fragment == null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof XmlElement && Objects.equals(((XmlElement) o).fragment, fragment);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(fragment);
    }

    @Override
    public String toString() {
        return "XmlElement[" + fragment + "]";
    }
}
