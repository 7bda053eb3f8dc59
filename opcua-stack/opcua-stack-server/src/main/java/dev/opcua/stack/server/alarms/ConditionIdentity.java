package dev.opcua.stack.server.alarms;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import java.util.Objects;

/**
 * What names a condition instance (Part 9, 5.5.2): its own node (the ConditionId of its events),
 * the node it is about (SourceNode and SourceName of its events), its ConditionName and its
 * ConditionClass.
 *
 * @param nodeId the condition node, the ConditionId
 * @param sourceNode the node whose state the condition watches, such as a motor object
 * @param sourceName the BrowseName text of the source node
 * @param conditionName ConditionName, e.g. "TemperatureAlarm"
 * @param conditionClassId ConditionClassId, a subtype of BaseConditionClassType (Part 9, 5.9)
 * @param conditionClassName ConditionClassName, the class's display name
 */
public record ConditionIdentity(NodeId nodeId, NodeId sourceNode, String sourceName, String conditionName,
        NodeId conditionClassId, LocalizedText conditionClassName) {

    /** ProcessConditionClassType (Part 9, 5.9.2): conditions about the process, such as a temperature. */
    public static final NodeId PROCESS_CONDITION_CLASS = NodeId.ns0(NodeIds.ProcessConditionClassType);

    public ConditionIdentity {
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(sourceNode, "sourceNode");
        Objects.requireNonNull(sourceName, "sourceName");
        Objects.requireNonNull(conditionClassId, "conditionClassId");
        Objects.requireNonNull(conditionClassName, "conditionClassName");
        if (conditionName == null || conditionName.isEmpty()) {
            throw new IllegalArgumentException("a condition needs a ConditionName");
        }
    }

    /** A condition of the process class. */
    public static ConditionIdentity of(NodeId nodeId, NodeId sourceNode, String sourceName, String conditionName) {
        return new ConditionIdentity(nodeId, sourceNode, sourceName, conditionName, PROCESS_CONDITION_CLASS,
                LocalizedText.of("ProcessConditionClassType"));
    }
}
