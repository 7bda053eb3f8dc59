package dev.opcua.stack.server.alarms;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.subscriptions.events.FieldPath;
import java.util.List;
import java.util.Map;

/**
 * A limit alarm in at most one limit state at a time (Part 9, 5.8.19 ExclusiveLimitAlarmType): the
 * ExclusiveLimitStateMachine {@code LimitState} (Part 9, 5.8.19.2) is in HighHigh, High, Low or LowLow
 * while the alarm is active, the outermost limit the input is at or beyond; {@code LimitState/CurrentState}
 * is its name and {@code CurrentState/Id} the state's well-known NodeId, both null while the alarm is
 * inactive. The Severity is that of the state. Going to a more severe state needs a new acknowledgement.
 */
public final class ExclusiveLimitAlarm extends LimitAlarm {

    /** ExclusiveLimitAlarmType (Part 9, 5.8.19.3). */
    public static final NodeId TYPE = NodeId.ns0(NodeIds.ExclusiveLimitAlarmType);

    // guarded by this
    private LimitState state;

    /**
     * @param normalSeverity the Severity while the input is within all limits
     * @param confirmable whether the instance has ConfirmedState and Confirm
     */
    public ExclusiveLimitAlarm(ConditionIdentity identity, NodeId inputNode, Limits limits, int normalSeverity,
            boolean confirmable) {
        super(identity, inputNode, limits, normalSeverity, confirmable);
    }

    @Override
    public NodeId typeDefinition() {
        return TYPE;
    }

    /** The limit state now, null while inactive. */
    public synchronized LimitState limitState() {
        return state;
    }

    @Override
    protected boolean applyNumber(double value) {
        LimitState next = limits().exclusiveState(value);
        if (next == state) {
            return false;
        }
        int severity = next == null ? normalSeverity() : limits().severity(next);
        if (next != null && state != null && severity > severity()) {
            requireAcknowledge();
        }
        state = next;
        setActive(next != null, severity);
        return true;
    }

    @Override
    protected LocalizedText stateMessage() {
        return message(state);
    }

    @Override
    protected void collectFields(Map<FieldPath, Variant> out) {
        super.collectFields(out);
        out.put(ConditionFields.LIMIT_STATE_CURRENT_STATE, state == null ? Variant.NULL : Variant.of(state.text()));
        out.put(ConditionFields.LIMIT_STATE_CURRENT_STATE_ID, state == null ? Variant.NULL : Variant.of(state.stateId()));
    }

    @Override
    protected void declare(List<ConditionField> out) {
        super.declare(out);
        out.add(ConditionField.object(ConditionFields.LIMIT_STATE, NodeIds.ExclusiveLimitStateMachineType));
        out.add(ConditionField.variable(ConditionFields.LIMIT_STATE_CURRENT_STATE, NodeIds.LocalizedText,
                NodeIds.FiniteStateVariableType));
        out.add(ConditionField.property(ConditionFields.LIMIT_STATE_CURRENT_STATE_ID, NodeIds.NodeId));
    }
}
