package dev.opcua.stack.server.alarms;

import java.util.Objects;

/** Options of a limit alarm declared with a {@link ConditionManagerBuilder} (Part 9, 5.8.18 LimitAlarmType). */
public final class LimitAlarmOptions extends AlarmOptions<LimitAlarmOptions> {

    LimitAlarmOptions(ConditionDefinition definition) {
        super(definition);
    }

    /** The limits and the Severity of each limit state; required. */
    public LimitAlarmOptions limits(Limits limits) {
        definition.limits = Objects.requireNonNull(limits, "limits");
        return this;
    }
}
