package dev.opcua.stack.server.subscriptions.events;

import dev.opcua.stack.core.types.builtin.QualifiedName;
import java.util.Arrays;
import java.util.Objects;

/**
 * The browse path of an event field: the BrowseNames from an event type down to one of its
 * InstanceDeclarations, as a SimpleAttributeOperand names it (Part 4, 7.7.4.5), for example
 * {@code Severity} or {@code EnabledState/Id}. The empty path names the event's own node.
 *
 * <p>Immutable, with its hash computed once, so that it serves as a map key on the evaluation path.
 * {@link #of} returns the constants below for the fields of BaseEventType (Part 5, 6.4.2), which
 * {@link UaEvent} keeps in fixed slots instead of a map.
 */
public final class FieldPath {

    /** Number of BaseEventType fields held in slots of {@link UaEvent}. */
    static final int STANDARD_SLOTS = 8;

    /** The empty path: the event's node itself (selected with the NodeId attribute). */
    public static final FieldPath EMPTY = new FieldPath(new QualifiedName[0], -1);
    public static final FieldPath EVENT_ID = standard("EventId", 0);
    public static final FieldPath EVENT_TYPE = standard("EventType", 1);
    public static final FieldPath SOURCE_NODE = standard("SourceNode", 2);
    public static final FieldPath SOURCE_NAME = standard("SourceName", 3);
    public static final FieldPath TIME = standard("Time", 4);
    public static final FieldPath RECEIVE_TIME = standard("ReceiveTime", 5);
    public static final FieldPath MESSAGE = standard("Message", 6);
    public static final FieldPath SEVERITY = standard("Severity", 7);

    private final QualifiedName[] names;
    private final int hash;
    /** Slot of a BaseEventType field in {@link UaEvent}, -1 for any other path. */
    private final int slot;

    private FieldPath(QualifiedName[] names, int slot) {
        this.names = names;
        this.hash = Arrays.hashCode(names);
        this.slot = slot;
    }

    private static FieldPath standard(String name, int slot) {
        return new FieldPath(new QualifiedName[] {QualifiedName.of(0, name)}, slot);
    }

    /**
     * The path of these BrowseNames (copied).
     *
     * @throws IllegalArgumentException when an element is null or has no name
     */
    public static FieldPath of(QualifiedName... names) {
        Objects.requireNonNull(names, "names");
        for (int i = 0; i < names.length; i++) {
            if (names[i] == null || names[i].name() == null || names[i].name().isEmpty()) {
                throw new IllegalArgumentException("browse path element " + i + " has no name: " + names[i]);
            }
        }
        if (names.length == 0) {
            return EMPTY;
        }
        if (names.length == 1 && names[0].namespaceIndex() == 0) {
            FieldPath standard = standardField(names[0].name());
            if (standard != null) {
                return standard;
            }
        }
        return new FieldPath(names.clone(), -1);
    }

    /** The path of these namespace 0 BrowseNames, as the standard event types use. */
    public static FieldPath of(String... ns0Names) {
        QualifiedName[] names = new QualifiedName[ns0Names.length];
        for (int i = 0; i < names.length; i++) {
            names[i] = QualifiedName.of(0, ns0Names[i]);
        }
        return of(names);
    }

    private static FieldPath standardField(String name) {
        return switch (name) {
            case "EventId" -> EVENT_ID;
            case "EventType" -> EVENT_TYPE;
            case "SourceNode" -> SOURCE_NODE;
            case "SourceName" -> SOURCE_NAME;
            case "Time" -> TIME;
            case "ReceiveTime" -> RECEIVE_TIME;
            case "Message" -> MESSAGE;
            case "Severity" -> SEVERITY;
            default -> null;
        };
    }

    /** This path followed by one more BrowseName. */
    public FieldPath append(QualifiedName name) {
        QualifiedName[] longer = Arrays.copyOf(names, names.length + 1);
        longer[names.length] = name;
        return of(longer);
    }

    public int length() {
        return names.length;
    }

    public QualifiedName get(int index) {
        return names[index];
    }

    public boolean isEmpty() {
        return names.length == 0;
    }

    int slot() {
        return slot;
    }

    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof FieldPath other && hash == other.hash && Arrays.equals(names, other.names);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    /** The names joined by {@code /}, each as {@code ns:name} outside namespace 0. */
    @Override
    public String toString() {
        if (names.length == 0) {
            return "<event node>";
        }
        StringBuilder sb = new StringBuilder();
        for (QualifiedName name : names) {
            if (sb.length() > 0) {
                sb.append('/');
            }
            sb.append(name);
        }
        return sb.toString();
    }
}
