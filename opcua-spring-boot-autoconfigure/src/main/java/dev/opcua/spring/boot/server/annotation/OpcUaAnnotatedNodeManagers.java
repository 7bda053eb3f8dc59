package dev.opcua.spring.boot.server.annotation;

import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.alarms.ConditionManager;
import dev.opcua.stack.server.subscriptions.items.DataChangeBroker;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.support.AopUtils;
import org.springframework.util.ClassUtils;

/**
 * The node managers of a set of {@link OpcUaNamespace} beans, one per namespace URI, and the
 * routing of value changes to them.
 *
 * <p>Use: register {@link #nodeManagers()} with the server's builder, {@link #connect} the server
 * once it started, then report changes with {@link #valueChanged} (the auto-configuration does all
 * three and turns each {@link UaValueChangedEvent} into a call).
 */
public final class OpcUaAnnotatedNodeManagers {

    private final List<OpcUaAnnotatedNodeManager> managers;
    private final List<ConditionManager> conditionManagers;

    private OpcUaAnnotatedNodeManagers(List<OpcUaAnnotatedNodeManager> managers) {
        this.managers = List.copyOf(managers);
        List<ConditionManager> conditions = new ArrayList<>();
        for (OpcUaAnnotatedNodeManager manager : managers) {
            ConditionManager alarms = manager.conditionManager();
            if (alarms != null) {
                conditions.add(alarms);
            }
        }
        this.conditionManagers = List.copyOf(conditions);
    }

    /**
     * Builds the node managers of the beans. A bean behind a Spring AOP proxy is used through its
     * target: its fields hold the values, and its own {@code this} is the source of its events.
     *
     * @param beans the annotated beans by bean name, in the order their objects are added
     * @throws OpcUaAnnotationException naming the bean and the member when one is wrong
     */
    public static OpcUaAnnotatedNodeManagers of(Map<String, ?> beans) {
        Map<String, Map<String, Object>> byNamespace = new LinkedHashMap<>();
        for (Map.Entry<String, ?> entry : beans.entrySet()) {
            Object bean = target(entry.getValue());
            OpcUaNamespace namespace = ClassUtils.getUserClass(bean).getAnnotation(OpcUaNamespace.class);
            if (namespace == null) {
                throw new OpcUaAnnotationException("bean '" + entry.getKey() + "' (" + bean.getClass().getName()
                        + ") is not annotated @OpcUaNamespace");
            }
            if (namespace.value().isBlank()) {
                throw new OpcUaAnnotationException("bean '" + entry.getKey() + "' (" + bean.getClass().getName()
                        + "): @OpcUaNamespace value '" + namespace.value()
                        + "' is not allowed; it is the namespace URI, e.g. urn:example:plant");
            }
            byNamespace.computeIfAbsent(namespace.value(), uri -> new LinkedHashMap<>()).put(entry.getKey(), bean);
        }
        List<OpcUaAnnotatedNodeManager> managers = new ArrayList<>();
        byNamespace.forEach((uri, members) -> managers.add(OpcUaAnnotatedNodeManager.of(uri, members)));
        checkPublishedFields(managers);
        return new OpcUaAnnotatedNodeManagers(managers);
    }

    /** Two variables may not be the same field of one data set. */
    private static void checkPublishedFields(List<OpcUaAnnotatedNodeManager> managers) {
        Map<String, String> taken = new LinkedHashMap<>();
        for (OpcUaAnnotatedNodeManager manager : managers) {
            for (UaObjectModel root : manager.roots()) {
                checkPublishedFields(root, taken);
            }
        }
    }

    private static void checkPublishedFields(UaObjectModel object, Map<String, String> taken) {
        for (UaVariableModel variable : object.variables()) {
            if (variable.published() == null) {
                continue;
            }
            String other = taken.putIfAbsent(variable.published() + "\u0000" + variable.publishedField(),
                    variable.member());
            if (other != null) {
                throw new OpcUaAnnotationException(variable.member() + ": field '" + variable.publishedField()
                        + "' of the published data set '" + variable.published() + "' is taken by " + other
                        + "; set publishedField to tell them apart");
            }
        }
        object.objects().forEach(child -> checkPublishedFields(child, taken));
    }

    private static Object target(Object bean) {
        if (AopUtils.isAopProxy(bean)) {
            Object target = AopProxyUtils.getSingletonTarget(bean);
            if (target != null) {
                return target(target);
            }
        }
        return bean;
    }

    /** One manager per namespace URI, in the order the beans came. */
    public List<OpcUaAnnotatedNodeManager> nodeManagers() {
        return managers;
    }

    /** The managers of the conditions of {@link UaLimitAlarm} variables, one per namespace that has any. */
    public List<ConditionManager> conditionManagers() {
        return conditionManagers;
    }

    /** Adds every manager, and those of the alarms and of the records' DataTypes, to the server's builder. */
    public void registerWith(OpcUaServer.Builder builder) {
        managers.forEach(builder::nodeManager);
        for (OpcUaAnnotatedNodeManager manager : managers) {
            if (manager.typeManager() != null) {
                builder.nodeManager(manager.typeManager());
            }
        }
        conditionManagers.forEach(builder::nodeManager);
    }

    /**
     * The variables annotated {@code @UaVariable(published = ...)} of every namespace, in declaration order, for
     * the PubSub data sets.
     *
     * @throws IllegalStateException before the server started
     */
    public List<UaPublishedVariable> publishedVariables() {
        List<UaPublishedVariable> published = new ArrayList<>();
        managers.forEach(manager -> published.addAll(manager.publishedVariables()));
        return published;
    }

    /** Hands signalled changes to the server's monitored items from now on. */
    public void connect(DataChangeBroker dataChanges) {
        managers.forEach(manager -> manager.connect(dataChanges));
    }

    /** Records signalled changes of historizing variables into the recorder the supplier gives (null: none). */
    public void connectHistory(java.util.function.Supplier<dev.opcua.stack.server.history.HistoryRecorder> history) {
        managers.forEach(manager -> manager.connectHistory(history));
    }

    /**
     * The member {@code property} of {@code source} changed (see {@link UaValueChangedEvent}).
     *
     * @throws IllegalArgumentException when {@code source} is no object of these managers or has no
     *     {@link UaVariable} of that name
     */
    public void valueChanged(Object source, String property) {
        boolean known = false;
        for (OpcUaAnnotatedNodeManager manager : managers) {
            known |= manager.valueChanged(source, property);
        }
        if (!known) {
            throw new IllegalArgumentException("value change of '" + property + "' of " + source.getClass().getName()
                    + ": the object is neither an @OpcUaNamespace bean nor held by a @UaObject member of one");
        }
    }

    /** The change an event signals. */
    public void valueChanged(UaValueChangedEvent event) {
        valueChanged(event.getSource(), event.property());
    }

    @Override
    public String toString() {
        return "OpcUaAnnotatedNodeManagers" + managers;
    }
}
