package dev.opcua.stack.server.alarms;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.subscriptions.events.FieldPath;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A limit alarm whose limit states may be active together (Part 9, 5.8.20 NonExclusiveLimitAlarmType):
 * one TwoStateVariable per limit set ({@code HighHighState}, {@code HighState}, {@code LowState},
 * {@code LowLowState}), each true while the input is at or beyond its limit, so a value above
 * HighHigh has both HighHighState and HighState active. The alarm is active while any is; its
 * Severity is the highest of the active states'. A new state becoming active needs a new
 * acknowledgement.
 */
public final class NonExclusiveLimitAlarm extends LimitAlarm {

    /** NonExclusiveLimitAlarmType (Part 9, 5.8.20). */
    public static final NodeId TYPE = NodeId.ns0(NodeIds.NonExclusiveLimitAlarmType);
    private static final LocalizedText ACTIVE = LocalizedText.of("en", "Active");
    private static final LocalizedText INACTIVE = LocalizedText.of("en", "Inactive");

    // guarded by this
    private final Set<LimitState> states = EnumSet.noneOf(LimitState.class);
    private final Map<LimitState, DateTime> transitions = new EnumMap<>(LimitState.class);

    public NonExclusiveLimitAlarm(ConditionIdentity identity, NodeId inputNode, Limits limits, int normalSeverity,
            boolean confirmable) {
        super(identity, inputNode, limits, normalSeverity, confirmable);
        DateTime now = DateTime.now();
        for (LimitState state : LimitState.values()) {
            transitions.put(state, now);
        }
    }

    @Override
    public NodeId typeDefinition() {
        return TYPE;
    }

    /** The limit states active now. */
    public synchronized Set<LimitState> activeStates() {
        return states.isEmpty() ? Set.of() : Set.copyOf(states);
    }

    @Override
    protected boolean applyNumber(double value) {
        Set<LimitState> next = EnumSet.noneOf(LimitState.class);
        int severity = normalSeverity();
        boolean anyActive = false;
        for (LimitState state : LimitState.values()) {
            if (limits().exceeds(state, value)) {
                next.add(state);
                severity = anyActive ? Math.max(severity, limits().severity(state)) : limits().severity(state);
                anyActive = true;
            }
        }
        if (next.equals(states)) {
            return false;
        }
        boolean newState = false;
        DateTime now = DateTime.now();
        for (LimitState state : LimitState.values()) {
            if (next.contains(state) != states.contains(state)) {
                transitions.put(state, now);
                newState |= next.contains(state);
            }
        }
        if (newState && !states.isEmpty()) {
            requireAcknowledge();
        }
        states.clear();
        states.addAll(next);
        setActive(!next.isEmpty(), severity);
        return true;
    }

    @Override
    protected LocalizedText stateMessage() {
        LimitState worst = null;
        for (LimitState state : states) {
            if (worst == null || limits().severity(state) > limits().severity(worst)) {
                worst = state;
            }
        }
        return message(worst);
    }

    @Override
    protected void collectFields(Map<FieldPath, Variant> out) {
        super.collectFields(out);
        for (LimitState state : LimitState.values()) {
            if (limits().has(state)) {
                twoState(out, state.stateField(), states.contains(state), ACTIVE, INACTIVE, transitions.get(state));
            }
        }
    }

    @Override
    protected void declare(List<ConditionField> out) {
        super.declare(out);
        for (LimitState state : LimitState.values()) {
            if (limits().has(state)) {
                declareTwoState(out, state.stateField());
            }
        }
    }
}
