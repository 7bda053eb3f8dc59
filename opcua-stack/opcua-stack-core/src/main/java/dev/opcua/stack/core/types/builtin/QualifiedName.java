package dev.opcua.stack.core.types.builtin;

import java.util.Objects;

/** A name qualified by a namespace index (Part 3, 8.3; Part 6, 5.2.2.13). Text form {@code ns:name}. */
public final class QualifiedName {

    public static final QualifiedName NULL = new QualifiedName(0, null);

    private final int namespaceIndex;
    private final String name;

    private QualifiedName(int namespaceIndex, String name) {
        this.namespaceIndex = namespaceIndex;
        this.name = name;
    }

    /** @param namespaceIndex UInt16 namespace index */
    public static QualifiedName of(int namespaceIndex, String name) {
        if (namespaceIndex < 0 || namespaceIndex > 0xFFFF) {
            throw new IllegalArgumentException("namespace index " + namespaceIndex + " is outside UInt16 range");
        }
        return namespaceIndex == 0 && name == null ? NULL : new QualifiedName(namespaceIndex, name);
    }

    public int namespaceIndex() {
        return namespaceIndex;
    }

    /** The name, or null. */
    public String name() {
        return name;
    }

    public boolean isNull() {
        return namespaceIndex == 0 && (name == null || name.isEmpty());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof QualifiedName && ((QualifiedName) o).namespaceIndex == namespaceIndex
                && Objects.equals(((QualifiedName) o).name, name);
    }

    @Override
    public int hashCode() {
        return 31 * namespaceIndex + Objects.hashCode(name);
    }

    @Override
    public String toString() {
        return namespaceIndex == 0 ? String.valueOf(name) : namespaceIndex + ":" + name;
    }
}
