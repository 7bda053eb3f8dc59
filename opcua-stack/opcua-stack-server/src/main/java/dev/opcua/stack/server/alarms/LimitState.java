package dev.opcua.stack.server.alarms;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.subscriptions.events.FieldPath;

/**
 * The limit states of a limit alarm: the states of the ExclusiveLimitStateMachineType (Part 9,
 * 5.8.19.2, with their well-known NodeIds in namespace 0) and the state variables of a
 * NonExclusiveLimitAlarmType (Part 9, 5.8.20).
 */
public enum LimitState {

    HIGH_HIGH("HighHigh", NodeIds.ExclusiveLimitStateMachineType_HighHigh, ConditionFields.HIGH_HIGH_LIMIT),
    HIGH("High", NodeIds.ExclusiveLimitStateMachineType_High, ConditionFields.HIGH_LIMIT),
    LOW("Low", NodeIds.ExclusiveLimitStateMachineType_Low, ConditionFields.LOW_LIMIT),
    LOW_LOW("LowLow", NodeIds.ExclusiveLimitStateMachineType_LowLow, ConditionFields.LOW_LOW_LIMIT);

    private final String browseName;
    private final NodeId stateId;
    private final FieldPath limitField;
    private final FieldPath stateField;
    private final LocalizedText text;

    LimitState(String browseName, int stateId, FieldPath limitField) {
        this.browseName = browseName;
        this.stateId = NodeId.ns0(stateId);
        this.limitField = limitField;
        this.stateField = FieldPath.of(browseName + "State");
        this.text = LocalizedText.of("en", browseName);
    }

    /** The state's BrowseName: HighHigh, High, Low, LowLow. */
    public String browseName() {
        return browseName;
    }

    /** The state's node in the ExclusiveLimitStateMachineType, the value of {@code LimitState/CurrentState/Id}. */
    public NodeId stateId() {
        return stateId;
    }

    /** The state's name as CurrentState shows it. */
    public LocalizedText text() {
        return text;
    }

    /** The field of the limit: {@code HighHighLimit} ... */
    public FieldPath limitField() {
        return limitField;
    }

    /** The TwoStateVariable of a non-exclusive limit alarm: {@code HighHighState} ... */
    public FieldPath stateField() {
        return stateField;
    }
}
