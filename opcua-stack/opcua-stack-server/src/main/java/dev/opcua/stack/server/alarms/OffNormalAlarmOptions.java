package dev.opcua.stack.server.alarms;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.alarms.ConditionDefinition.NodeRef;
import java.util.Objects;

/**
 * Options of an off-normal alarm declared with a {@link ConditionManagerBuilder} (Part 9, 5.8.24.2
 * OffNormalAlarmType): its normal value or the variable holding it (NormalState), and its Severity
 * while off normal.
 */
public final class OffNormalAlarmOptions extends AlarmOptions<OffNormalAlarmOptions> {

    OffNormalAlarmOptions(ConditionDefinition definition) {
        super(definition);
    }

    /**
     * The normal value of the input; the instance gets a {@code NormalValue} variable holding it,
     * which NormalState names, unless {@link #normalState} names another.
     */
    public OffNormalAlarmOptions normalValue(Variant value) {
        definition.normalValue = Objects.requireNonNull(value, "value");
        return this;
    }

    /** A variable of the address space holding the normal value, for NormalState. */
    public OffNormalAlarmOptions normalState(NodeId variable) {
        definition.normalState = NodeRef.of(Objects.requireNonNull(variable, "variable"));
        return this;
    }

    /** The Severity while off normal, 500 by default. */
    public OffNormalAlarmOptions activeSeverity(int severity) {
        Condition.checkSeverity(severity);
        definition.activeSeverity = severity;
        return this;
    }
}
