package dev.opcua.stack.server.alarms;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.subscriptions.events.FieldPath;
import java.util.Objects;

/**
 * One InstanceDeclaration a condition type declares (Part 9, 5.5.2 and the tables of its subtypes),
 * as an instance carries it: a variable (component or property) or an object below the condition
 * node, named by its browse path, which is also the path of the event field that reports it.
 *
 * @param path browse path from the condition node, e.g. {@code EnabledState/Id}
 * @param dataType DataType of a variable, null for an object
 * @param typeDefinition VariableType or ObjectType of the node
 * @param property whether the parent holds it with HasProperty (else HasComponent)
 */
public record ConditionField(FieldPath path, NodeId dataType, NodeId typeDefinition, boolean property) {

    private static final NodeId PROPERTY_TYPE = NodeId.ns0(NodeIds.PropertyType);

    public ConditionField {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(typeDefinition, "typeDefinition");
        if (path.isEmpty()) {
            throw new IllegalArgumentException("a condition field needs a browse path");
        }
    }

    /** A property (PropertyType) of this DataType. */
    static ConditionField property(FieldPath path, int dataType) {
        return new ConditionField(path, NodeId.ns0(dataType), PROPERTY_TYPE, true);
    }

    /** A component variable of this DataType and VariableType. */
    static ConditionField variable(FieldPath path, int dataType, int typeDefinition) {
        return new ConditionField(path, NodeId.ns0(dataType), NodeId.ns0(typeDefinition), false);
    }

    /** A component object of this ObjectType. */
    static ConditionField object(FieldPath path, int typeDefinition) {
        return new ConditionField(path, null, NodeId.ns0(typeDefinition), false);
    }

    public boolean isObject() {
        return dataType == null;
    }
}
