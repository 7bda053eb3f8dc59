package dev.opcua.stack.server.alarms;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.Argument;
import dev.opcua.stack.server.addressspace.MethodNode;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.ObjectNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.subscriptions.events.FieldPath;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.util.HashMap;
import java.util.Map;

/**
 * Creates the nodes of a condition instance in a {@link NodeStore} (Part 9, 5.5.2 and Part 3, 6.4
 * instantiation): the condition object with its type definition, a variable (or object) per declared
 * field with the type definitions and modelling-free references of the type's InstanceDeclarations,
 * and its methods with their InputArguments. NodeIds are strings: the condition's id, a dot, and the
 * browse path joined with dots ({@code Motor.TemperatureAlarm.EnabledState.Id}).
 */
final class ConditionNodes {

    static final NodeId HAS_COMPONENT = NodeId.ns0(NodeIds.HasComponent);
    static final NodeId HAS_PROPERTY = NodeId.ns0(NodeIds.HasProperty);
    static final NodeId HAS_CONDITION = NodeId.ns0(NodeIds.HasCondition);
    static final NodeId HAS_TYPE_DEFINITION = NodeId.ns0(NodeIds.HasTypeDefinition);
    static final NodeId HAS_TRUE_SUB_STATE = NodeId.ns0(NodeIds.HasTrueSubState);
    private static final NodeId PROPERTY_TYPE = NodeId.ns0(NodeIds.PropertyType);
    private static final NodeId ARGUMENT = NodeId.ns0(NodeIds.Argument);
    private static final short READ = 1;

    /** The methods of a condition instance and their inputs (Part 9, 5.5.4 to 5.5.6, 5.7.3, 5.7.4). */
    enum ConditionMethod {
        ENABLE("Enable", NodeIds.ConditionType_Enable),
        DISABLE("Disable", NodeIds.ConditionType_Disable),
        ADD_COMMENT("AddComment", NodeIds.ConditionType_AddComment),
        ACKNOWLEDGE("Acknowledge", NodeIds.AcknowledgeableConditionType_Acknowledge),
        CONFIRM("Confirm", NodeIds.AcknowledgeableConditionType_Confirm);

        final String browseName;
        /** The method of the type, which a client may call with the instance as object. */
        final NodeId typeMethod;

        ConditionMethod(String browseName, int typeMethod) {
            this.browseName = browseName;
            this.typeMethod = NodeId.ns0(typeMethod);
        }

        /** Enable and Disable take nothing; the others an EventId and a Comment. */
        Argument[] inputs() {
            if (this == ENABLE || this == DISABLE) {
                return new Argument[0];
            }
            return new Argument[] {
                new Argument("EventId", NodeId.ns0(NodeIds.ByteString), -1, null,
                        LocalizedText.of("The identifier of the event the method refers to")),
                new Argument("Comment", NodeId.ns0(NodeIds.LocalizedText), -1, null,
                        LocalizedText.of("The comment to add to the condition"))};
        }

        /** Whether the condition offers the method. */
        boolean appliesTo(Condition condition) {
            return switch (this) {
                case ENABLE, DISABLE, ADD_COMMENT -> true;
                case ACKNOWLEDGE -> condition instanceof AcknowledgeableCondition;
                case CONFIRM -> condition instanceof AcknowledgeableCondition a && a.isConfirmable();
            };
        }

        static ConditionMethod ofTypeMethod(NodeId methodId) {
            for (ConditionMethod method : values()) {
                if (method.typeMethod.equals(methodId)) {
                    return method;
                }
            }
            return null;
        }
    }

    /** The nodes created for one condition. */
    record Instance(Condition condition, Map<FieldPath, VariableNode> variables, Map<NodeId, ConditionMethod> methods) {
    }

    private ConditionNodes() {
    }

    static NodeId childId(NodeId parent, String browseName) {
        return NodeId.string(parent.namespaceIndex(), parent.stringId() + "." + browseName);
    }

    /**
     * Adds the condition's nodes to the store.
     *
     * @param browseName the condition node's BrowseName
     */
    static Instance create(NodeStore store, Condition condition, QualifiedName browseName) {
        NodeId id = condition.nodeId();
        ConditionIdentity identity = condition.identity();
        ObjectNode object = new ObjectNode(id, browseName, LocalizedText.of(identity.conditionName()), null, 0, 0,
                (short) 0);
        store.add(object);
        object.addReference(UaReference.forward(HAS_TYPE_DEFINITION, condition.typeDefinition()));
        // the source lists its conditions; the server adds the forward references to a source in memory
        object.addReference(UaReference.inverse(HAS_COMPONENT, identity.sourceNode()));
        object.addReference(UaReference.inverse(HAS_CONDITION, identity.sourceNode()));
        Map<FieldPath, VariableNode> variables = new HashMap<>();
        Map<FieldPath, NodeId> ids = new HashMap<>();
        ids.put(FieldPath.EMPTY, id);
        DateTime now = DateTime.now();
        for (ConditionField field : condition.declarations()) {
            FieldPath path = field.path();
            NodeId parent = ids.get(parentOf(path));
            if (parent == null) {
                throw new IllegalStateException("field " + path + " of " + condition + " is declared before its parent");
            }
            QualifiedName name = path.get(path.length() - 1);
            NodeId childId = childId(parent, name.name());
            ids.put(path, childId);
            if (field.isObject()) {
                store.add(new ObjectNode(childId, name, LocalizedText.of(name.name()), null, 0, 0, (short) 0));
            } else {
                VariableNode variable = new VariableNode(childId, name, LocalizedText.of(name.name()), null, 0, 0,
                        DataValue.of(Variant.NULL, StatusCode.GOOD, now, null),
                        ValueAttributes.scalar(field.dataType()), READ, READ, 0, false, READ);
                store.add(variable);
                variables.put(path, variable);
            }
            NodeId reference = field.property() ? HAS_PROPERTY : HAS_COMPONENT;
            store.get(parent).addReference(UaReference.forward(reference, childId));
            store.get(childId).addReference(UaReference.inverse(reference, parent));
            store.get(childId).addReference(UaReference.forward(HAS_TYPE_DEFINITION, field.typeDefinition()));
        }
        NodeId limitState = ids.get(ConditionFields.LIMIT_STATE);
        NodeId activeState = ids.get(ConditionFields.ACTIVE_STATE);
        if (limitState != null && activeState != null) {
            // Part 9, 5.8.19.3: the limit states are the true sub-states of ActiveState
            store.get(activeState).addReference(UaReference.forward(HAS_TRUE_SUB_STATE, limitState));
            store.get(limitState).addReference(UaReference.inverse(HAS_TRUE_SUB_STATE, activeState));
        }
        Map<NodeId, ConditionMethod> methods = new HashMap<>();
        for (ConditionMethod method : ConditionMethod.values()) {
            if (method.appliesTo(condition)) {
                methods.put(addMethod(store, id, method, now), method);
            }
        }
        return new Instance(condition, Map.copyOf(variables), Map.copyOf(methods));
    }

    /** The variable an off-normal alarm's NormalState names when its normal value was given as a value. */
    static NodeId normalValueId(NodeId condition) {
        return childId(condition, "NormalValue");
    }

    /**
     * Adds the {@link #normalValueId NormalValue} variable holding the alarm's normal value, a component of
     * the condition (Part 9, 5.8.24.2: NormalState names a variable holding the normal value).
     */
    static void addNormalValue(NodeStore store, NodeId condition, OffNormalAlarm alarm) {
        Variant value = alarm.normalValue();
        NodeId id = normalValueId(condition);
        VariableNode node = new VariableNode(id, QualifiedName.of(condition.namespaceIndex(), "NormalValue"),
                LocalizedText.of("NormalValue"), null, 0, 0, DataValue.of(value, StatusCode.GOOD, DateTime.now(), null),
                ValueAttributes.scalar(value.type().dataTypeId()), READ, READ, 0, false, READ);
        store.add(node);
        node.addReference(UaReference.inverse(HAS_COMPONENT, condition));
        node.addReference(UaReference.forward(HAS_TYPE_DEFINITION, NodeId.ns0(NodeIds.BaseDataVariableType)));
        store.get(condition).addReference(UaReference.forward(HAS_COMPONENT, id));
    }

    private static FieldPath parentOf(FieldPath path) {
        QualifiedName[] names = new QualifiedName[path.length() - 1];
        for (int i = 0; i < names.length; i++) {
            names[i] = path.get(i);
        }
        return FieldPath.of(names);
    }

    private static NodeId addMethod(NodeStore store, NodeId condition, ConditionMethod method, DateTime now) {
        NodeId id = childId(condition, method.browseName);
        MethodNode node = new MethodNode(id, QualifiedName.of(0, method.browseName),
                LocalizedText.of(method.browseName), null, 0, 0, true, true);
        store.add(node);
        node.addReference(UaReference.inverse(HAS_COMPONENT, condition));
        store.get(condition).addReference(UaReference.forward(HAS_COMPONENT, id));
        Argument[] inputs = method.inputs();
        if (inputs.length > 0) {
            NodeId argumentsId = childId(id, "InputArguments");
            ExtensionObject[] values = new ExtensionObject[inputs.length];
            for (int i = 0; i < inputs.length; i++) {
                values[i] = ExtensionObject.of(inputs[i]);
            }
            VariableNode arguments = new VariableNode(argumentsId, QualifiedName.of(0, "InputArguments"),
                    LocalizedText.of("InputArguments"), null, 0, 0,
                    DataValue.of(Variant.ofArray(BuiltinType.ExtensionObject, values), StatusCode.GOOD, now, null),
                    new ValueAttributes(ARGUMENT, 1, new long[] {inputs.length}), READ, READ, 0, false, READ);
            store.add(arguments);
            arguments.addReference(UaReference.inverse(HAS_PROPERTY, id));
            arguments.addReference(UaReference.forward(HAS_TYPE_DEFINITION, PROPERTY_TYPE));
            node.addReference(UaReference.forward(HAS_PROPERTY, argumentsId));
        }
        return id;
    }

    /**
     * Writes the condition's fields into its variables, and the BaseEventType fields of its last event
     * (Part 5, 6.4.2) into those properties; before the first event EventId, Time and ReceiveTime are null.
     *
     * @param event the event of the change, or null when none was reported
     */
    static void mirror(Instance instance, Map<FieldPath, Variant> fields, UaEvent event) {
        DateTime now = DateTime.now();
        Condition condition = instance.condition();
        for (Map.Entry<FieldPath, VariableNode> entry : instance.variables().entrySet()) {
            FieldPath path = entry.getKey();
            Variant value = fields.get(path);
            if (value == null && path.length() == 1) {
                value = baseEventField(path, condition, event);
                if (value == null) {
                    continue; // a field of the last event, kept while no new one was reported
                }
            }
            entry.getValue().setValue(DataValue.of(value == null ? Variant.NULL : value, StatusCode.GOOD, now, null));
        }
    }

    /** The value of a BaseEventType field, or null to keep the last one (no event to take it from). */
    private static Variant baseEventField(FieldPath path, Condition condition, UaEvent event) {
        if (path.equals(FieldPath.EVENT_TYPE)) {
            return Variant.of(condition.typeDefinition());
        }
        if (path.equals(FieldPath.SOURCE_NODE)) {
            return Variant.of(condition.identity().sourceNode());
        }
        if (path.equals(FieldPath.SOURCE_NAME)) {
            return Variant.ofString(condition.identity().sourceName());
        }
        if (path.equals(FieldPath.MESSAGE)) {
            return Variant.of(condition.message());
        }
        if (path.equals(FieldPath.SEVERITY)) {
            return Variant.ofUInt16(condition.severity());
        }
        return event == null ? null : event.field(path);
    }
}
