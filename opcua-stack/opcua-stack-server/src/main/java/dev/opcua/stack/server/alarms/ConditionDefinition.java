package dev.opcua.stack.server.alarms;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.nodes.NamespaceTable;

/**
 * One condition declared with a {@link ConditionManagerBuilder}, as its options left it: what the
 * {@link ConditionManager} creates at start, when the namespaces of its source and input are known.
 */
final class ConditionDefinition {

    enum Kind { EXCLUSIVE_LIMIT, NON_EXCLUSIVE_LIMIT, OFF_NORMAL }

    /** A node named by a NodeId, or by a namespace URI and a string identifier resolved at start. */
    record NodeRef(NodeId nodeId, String namespaceUri, String identifier) {

        static NodeRef of(NodeId nodeId) {
            return new NodeRef(nodeId, null, null);
        }

        static NodeRef of(String namespaceUri, String identifier) {
            return new NodeRef(null, namespaceUri, identifier);
        }

        NodeId resolve(NamespaceTable namespaces, String what) {
            if (nodeId != null) {
                return nodeId;
            }
            int ns = namespaces.indexOf(namespaceUri);
            if (ns < 0) {
                throw new IllegalStateException(what + ": namespace " + namespaceUri + " is not in the namespace table");
            }
            return NodeId.string(ns, identifier);
        }
    }

    final Kind kind;
    final String path;
    NodeRef source;
    String sourceName;
    String conditionName;
    NodeRef input;
    boolean sampleInput = true;
    Limits limits;
    int normalSeverity = 100;
    int activeSeverity = 500;
    boolean confirmable = true;
    NodeRef normalState;
    Variant normalValue;

    ConditionDefinition(Kind kind, String path) {
        this.kind = kind;
        this.path = path;
    }

    String browseName() {
        int dot = path.lastIndexOf('.');
        return dot < 0 ? path : path.substring(dot + 1);
    }

    /** The condition of node {@code id}, its source, input and normal state resolved. */
    Condition create(NodeId id, NamespaceTable namespaces) {
        String what = "condition " + path;
        ConditionIdentity identity = ConditionIdentity.of(id, source.resolve(namespaces, what), sourceName,
                conditionName == null ? browseName() : conditionName);
        NodeId inputNode = input.resolve(namespaces, what);
        return switch (kind) {
            case EXCLUSIVE_LIMIT -> new ExclusiveLimitAlarm(identity, inputNode, limits, normalSeverity, confirmable);
            case NON_EXCLUSIVE_LIMIT -> new NonExclusiveLimitAlarm(identity, inputNode, limits, normalSeverity,
                    confirmable);
            case OFF_NORMAL -> new OffNormalAlarm(identity, inputNode,
                    normalState != null ? normalState.resolve(namespaces, what) : ConditionNodes.normalValueId(id),
                    normalValue, normalSeverity, activeSeverity, confirmable);
        };
    }

    /** @throws IllegalArgumentException naming the condition when a source, input, limits or normal value is missing */
    void validate() {
        String what = "condition " + path;
        if (source == null || sourceName == null) {
            throw new IllegalArgumentException(what + " needs a source node and its name: source(...)");
        }
        if (input == null) {
            throw new IllegalArgumentException(what + " needs an input variable: input(...)");
        }
        if ((kind == Kind.EXCLUSIVE_LIMIT || kind == Kind.NON_EXCLUSIVE_LIMIT) && limits == null) {
            throw new IllegalArgumentException(what + " needs its limits: limits(...)");
        }
        if (kind == Kind.OFF_NORMAL && normalValue == null) {
            throw new IllegalArgumentException(what + " needs its normal value: normalValue(...)");
        }
    }
}
