package dev.opcua.stack.server.alarms;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.alarms.ConditionDefinition.NodeRef;
import java.util.Objects;

/**
 * Options every alarm declared with a {@link ConditionManagerBuilder} has (Part 9, 5.8.2
 * AlarmConditionType): its source (SourceNode and SourceName, Part 5, 6.4.2), its input (InputNode),
 * its ConditionName, its Severity while inactive, and whether it is confirmable (Part 9, 5.7.2).
 *
 * @param <T> the options class, for chaining
 */
public abstract class AlarmOptions<T extends AlarmOptions<T>> {

    final ConditionDefinition definition;

    AlarmOptions(ConditionDefinition definition) {
        this.definition = definition;
    }

    @SuppressWarnings("unchecked")
    private T self() {
        return (T) this;
    }

    /** The node the alarm is about (SourceNode) and its name (SourceName), such as a motor object. */
    public T source(NodeId node, String name) {
        definition.source = NodeRef.of(Objects.requireNonNull(node, "node"));
        definition.sourceName = Objects.requireNonNull(name, "name");
        return self();
    }

    /** The source by its namespace URI and string identifier, resolved when the server starts. */
    public T source(String namespaceUri, String identifier, String name) {
        definition.source = NodeRef.of(Objects.requireNonNull(namespaceUri, "namespaceUri"),
                Objects.requireNonNull(identifier, "identifier"));
        definition.sourceName = Objects.requireNonNull(name, "name");
        return self();
    }

    /** The variable whose value drives the alarm (InputNode); sampled unless {@link #pushedInput()}. */
    public T input(NodeId node) {
        definition.input = NodeRef.of(Objects.requireNonNull(node, "node"));
        return self();
    }

    /** The input by its namespace URI and string identifier, resolved when the server starts. */
    public T input(String namespaceUri, String identifier) {
        definition.input = NodeRef.of(Objects.requireNonNull(namespaceUri, "namespaceUri"),
                Objects.requireNonNull(identifier, "identifier"));
        return self();
    }

    /** The application pushes the input's values with {@link AlarmCondition#input}; it is not sampled. */
    public T pushedInput() {
        definition.sampleInput = false;
        return self();
    }

    /** ConditionName; the last segment of the path by default. */
    public T conditionName(String name) {
        definition.conditionName = Objects.requireNonNull(name, "name");
        return self();
    }

    /** The Severity while the alarm is inactive, 100 by default. */
    public T normalSeverity(int severity) {
        Condition.checkSeverity(severity);
        definition.normalSeverity = severity;
        return self();
    }

    /** Whether the alarm has ConfirmedState and Confirm (true by default). */
    public T confirmable(boolean value) {
        definition.confirmable = value;
        return self();
    }
}
