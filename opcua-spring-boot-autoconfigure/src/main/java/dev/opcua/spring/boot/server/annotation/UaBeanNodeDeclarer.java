package dev.opcua.spring.boot.server.annotation;

import dev.opcua.stack.core.types.structured.Argument;
import dev.opcua.stack.server.datatypes.RecordDataTypeManager;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.nodes.InMemoryNodeManagerBuilder;
import dev.opcua.stack.server.nodes.VariableOptions;
import dev.opcua.stack.server.roles.WellKnownRole;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Declares the objects, variables and methods of the {@link UaObjectModel}s of one namespace on an
 * {@link InMemoryNodeManagerBuilder} (Part 3, 5.5 to 5.7): variables read and write their members and
 * methods call theirs through a {@link UaBeanMemberAccess}. Objects of a {@link UaObject#type()} are
 * not declared but collected, to be made instances of their type at start ({@link UaTypedObjects}).
 */
final class UaBeanNodeDeclarer {

    private final InMemoryNodeManagerBuilder builder;
    private final UaBeanMemberAccess access;
    private final RecordDataTypeManager types;
    private final List<UaVariableBinding> variables = new ArrayList<>();
    /** Holder object (by identity) to its variables by Java name, and the bean to nested ones by dotted path. */
    private final Map<Object, Map<String, List<UaVariableBinding>>> byHolder = new IdentityHashMap<>();
    /** The objects of a {@link UaObject#type()} by their paths. */
    private final Map<String, UaObjectModel> typedObjects = new LinkedHashMap<>();

    /**
     * @param types the DataTypes of the record variables ({@link #recordTypes}), null when there are none
     */
    UaBeanNodeDeclarer(InMemoryNodeManagerBuilder builder, UaBeanMemberAccess access, RecordDataTypeManager types) {
        this.builder = builder;
        this.access = access;
        this.types = types;
    }

    /**
     * The DataTypes of the record variables of the objects (Part 3, 5.8.3), in the namespace
     * {@code typesNamespaceUri}; null when they have none.
     *
     * @throws OpcUaAnnotationException naming the namespace when a record cannot be a structure
     */
    static RecordDataTypeManager recordTypes(String namespaceUri, String typesNamespaceUri,
            List<UaObjectModel> roots) {
        Set<Class<? extends Record>> records = new LinkedHashSet<>();
        ArrayDeque<UaObjectModel> pending = new ArrayDeque<>(roots);
        while (!pending.isEmpty()) {
            UaObjectModel object = pending.poll();
            for (UaVariableModel variable : object.variables()) {
                if (variable.converter().recordType() != null) {
                    records.add(variable.converter().recordType());
                }
            }
            pending.addAll(object.objects());
        }
        if (records.isEmpty()) {
            return null;
        }
        RecordDataTypeManager.Builder types = RecordDataTypeManager.builder(typesNamespaceUri);
        try {
            records.forEach(types::record);
        } catch (IllegalArgumentException e) {
            throw new OpcUaAnnotationException("namespace " + namespaceUri + ": " + e.getMessage());
        }
        return types.build();
    }

    /** Declares a bean's object and everything below it. */
    void declare(UaObjectModel root) {
        declare(root, root.browseName(), root.instance());
    }

    private void declare(UaObjectModel object, String path, Object bean) {
        if (object.typed()) {
            // the type's instance is made at start (instantiateTypes); its variables bind the instance's children
            typedObjects.put(path, object);
            for (UaVariableModel variable : object.variables()) {
                UaVariableBinding binding = new UaVariableBinding(variable, path + "." + variable.browseName(), true);
                variables.add(binding);
                index(object.instance(), variable.property(), binding);
                index(bean, object.javaPath() + "." + variable.property(), binding);
            }
            return;
        }
        boolean alarmSource = object.variables().stream().anyMatch(UaVariableModel::hasAlarm);
        builder.object(path, o -> {
            o.displayName(object.displayName()).description(object.description());
            if (alarmSource) {
                o.eventNotifier(); // Part 9: clients may monitor the alarms of the object on it
            }
        });
        for (UaVariableModel variable : object.variables()) {
            declareVariable(object, path, bean, variable);
        }
        for (UaMethodModel method : object.methods()) {
            builder.method(path + "." + method.browseName(), arguments(method.inputs()), arguments(method.outputs()),
                    (context, inputs) -> access.call(method, context, inputs), m -> {
                        if (!method.callRoles().isEmpty()) {
                            m.callRoles(method.callRoles().toArray(WellKnownRole[]::new));
                        }
                    });
        }
        for (UaObjectModel child : object.objects()) {
            declare(child, path + "." + child.browseName(), bean);
        }
    }

    private void declareVariable(UaObjectModel object, String path, Object bean, UaVariableModel variable) {
        String variablePath = path + "." + variable.browseName();
        UaVariableBinding binding = new UaVariableBinding(variable, variablePath, false);
        variables.add(binding);
        index(object.instance(), variable.property(), binding);
        if (!object.javaPath().isEmpty()) {
            index(bean, object.javaPath() + "." + variable.property(), binding);
        }
        Consumer<VariableOptions> options = v -> {
            v.displayName(variable.displayName())
                    .description(variable.description())
                    .valueRank(variable.valueRank())
                    .minimumSamplingInterval(variable.minimumSamplingInterval())
                    .valueSupplier(() -> access.read(variable));
            if (variable.valueRank() == 1) {
                v.arrayDimensions(0);
            }
            if (variable.writable()) {
                v.onWrite((context, value) -> access.write(binding, value));
            }
            if (!variable.readRoles().isEmpty()) {
                v.readRoles(variable.readRoles().toArray(WellKnownRole[]::new));
            }
            if (!variable.writeRoles().isEmpty()) {
                v.writeRoles(variable.writeRoles().toArray(WellKnownRole[]::new));
            }
            if (variable.historizing()) {
                v.historizing();
            }
        };
        Class<? extends Record> record = variable.converter().recordType();
        if (record != null) {
            builder.variable(variablePath, types.dataTypeId(record), options);
        } else {
            builder.variable(variablePath, variable.builtinType(), options);
        }
    }

    private void index(Object holder, String name, UaVariableBinding binding) {
        byHolder.computeIfAbsent(holder, h -> new LinkedHashMap<>()).computeIfAbsent(name, n -> new ArrayList<>(1))
                .add(binding);
    }

    private static Argument[] arguments(List<UaArgumentModel> arguments) {
        Argument[] result = new Argument[arguments.size()];
        for (int i = 0; i < result.length; i++) {
            result[i] = arguments.get(i).toArgument();
        }
        return result;
    }

    /** The node manager of the declared nodes. */
    InMemoryNodeManager build() {
        return builder.build();
    }

    /** Every declared variable, in declaration order. */
    List<UaVariableBinding> variables() {
        return List.copyOf(variables);
    }

    /** The variables by holder object (by identity), then by Java name or dotted path from the bean. */
    Map<Object, Map<String, List<UaVariableBinding>>> byHolder() {
        return byHolder;
    }

    /** The objects of a {@link UaObject#type()}, by their paths. */
    Map<String, UaObjectModel> typedObjects() {
        return typedObjects;
    }
}
