package dev.opcua.stack.server.alarms;

import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.server.subscriptions.events.FieldPath;

/**
 * The browse paths of the condition fields (Part 9, 5.5.2 ConditionType, 5.7.2
 * AcknowledgeableConditionType, 5.8.2 AlarmConditionType, 5.8.18 LimitAlarmType and its subtypes,
 * 5.8.24.2 OffNormalAlarmType), which name both the event fields and the variables of an instance.
 */
public final class ConditionFields {

    public static final FieldPath CONDITION_CLASS_ID = FieldPath.of("ConditionClassId");
    public static final FieldPath CONDITION_CLASS_NAME = FieldPath.of("ConditionClassName");
    public static final FieldPath CONDITION_NAME = FieldPath.of("ConditionName");
    public static final FieldPath BRANCH_ID = FieldPath.of("BranchId");
    public static final FieldPath RETAIN = FieldPath.of("Retain");
    public static final FieldPath ENABLED_STATE = FieldPath.of("EnabledState");
    public static final FieldPath ENABLED_STATE_ID = FieldPath.of("EnabledState", "Id");
    public static final FieldPath QUALITY = FieldPath.of("Quality");
    public static final FieldPath QUALITY_SOURCE_TIMESTAMP = FieldPath.of("Quality", "SourceTimestamp");
    public static final FieldPath LAST_SEVERITY = FieldPath.of("LastSeverity");
    public static final FieldPath LAST_SEVERITY_SOURCE_TIMESTAMP = FieldPath.of("LastSeverity", "SourceTimestamp");
    public static final FieldPath COMMENT = FieldPath.of("Comment");
    public static final FieldPath COMMENT_SOURCE_TIMESTAMP = FieldPath.of("Comment", "SourceTimestamp");
    public static final FieldPath CLIENT_USER_ID = FieldPath.of("ClientUserId");
    public static final FieldPath ACKED_STATE = FieldPath.of("AckedState");
    public static final FieldPath ACKED_STATE_ID = FieldPath.of("AckedState", "Id");
    public static final FieldPath CONFIRMED_STATE = FieldPath.of("ConfirmedState");
    public static final FieldPath CONFIRMED_STATE_ID = FieldPath.of("ConfirmedState", "Id");
    public static final FieldPath ACTIVE_STATE = FieldPath.of("ActiveState");
    public static final FieldPath ACTIVE_STATE_ID = FieldPath.of("ActiveState", "Id");
    public static final FieldPath INPUT_NODE = FieldPath.of("InputNode");
    public static final FieldPath SUPPRESSED_OR_SHELVED = FieldPath.of("SuppressedOrShelved");
    public static final FieldPath HIGH_HIGH_LIMIT = FieldPath.of("HighHighLimit");
    public static final FieldPath HIGH_LIMIT = FieldPath.of("HighLimit");
    public static final FieldPath LOW_LIMIT = FieldPath.of("LowLimit");
    public static final FieldPath LOW_LOW_LIMIT = FieldPath.of("LowLowLimit");
    public static final FieldPath LIMIT_STATE = FieldPath.of("LimitState");
    public static final FieldPath LIMIT_STATE_CURRENT_STATE = FieldPath.of("LimitState", "CurrentState");
    public static final FieldPath LIMIT_STATE_CURRENT_STATE_ID = FieldPath.of("LimitState", "CurrentState", "Id");
    public static final FieldPath NORMAL_STATE = FieldPath.of("NormalState");

    private ConditionFields() {
    }

    /** The {@code Id} (Boolean) of a TwoStateVariable (Part 9, 5.2). */
    static FieldPath id(FieldPath state) {
        return state.append(QualifiedName.of(0, "Id"));
    }

    static FieldPath transitionTime(FieldPath state) {
        return state.append(QualifiedName.of(0, "TransitionTime"));
    }

    static FieldPath trueState(FieldPath state) {
        return state.append(QualifiedName.of(0, "TrueState"));
    }

    static FieldPath falseState(FieldPath state) {
        return state.append(QualifiedName.of(0, "FalseState"));
    }
}
