package dev.opcua.stack.server.alarms;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.subscriptions.events.FieldPath;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An alarm on the limits of a numeric input (Part 9, 5.8.18 LimitAlarmType): the limits set are
 * properties of the instance and fields of its events. A value that is not a number sets Quality
 * to BadTypeMismatch.
 */
public abstract class LimitAlarm extends AlarmCondition {

    private final Limits limits;
    private final int normalSeverity;
    // guarded by this
    private double lastValue = Double.NaN;

    protected LimitAlarm(ConditionIdentity identity, NodeId inputNode, Limits limits, int normalSeverity,
            boolean confirmable) {
        super(identity, inputNode, normalSeverity, confirmable);
        this.limits = Objects.requireNonNull(limits, "limits");
        this.normalSeverity = normalSeverity;
    }

    public Limits limits() {
        return limits;
    }

    /** The Severity while no limit is exceeded. */
    public int normalSeverity() {
        return normalSeverity;
    }

    @Override
    protected final boolean apply(Variant value) {
        Object v = value.value();
        if (!(v instanceof Number number) || value.isArray()) {
            StatusCode mismatch = StatusCode.of(StatusCodes.BadTypeMismatch);
            boolean changed = !mismatch.equals(quality());
            setQuality(mismatch);
            return changed;
        }
        lastValue = number.doubleValue();
        return applyNumber(lastValue);
    }

    /** Evaluates a number against the limits; returns whether the state changed. Called under the lock. */
    protected abstract boolean applyNumber(double value);

    /** The last number evaluated, NaN before the first. Called under the lock. */
    protected final double lastValue() {
        return lastValue;
    }

    /** "Temperature is High (85.2)" or "Temperature is normal (20.0)". */
    protected final LocalizedText message(LimitState state) {
        String name = identity().conditionName();
        String value = Double.isNaN(lastValue) ? "" : " (" + lastValue + ")";
        return LocalizedText.of("en", state == null ? name + " is normal" + value
                : name + " is " + state.browseName() + value + ", limit " + limits.limit(state));
    }

    @Override
    protected void collectFields(Map<FieldPath, Variant> out) {
        super.collectFields(out);
        for (LimitState state : LimitState.values()) {
            if (limits.has(state)) {
                out.put(state.limitField(), Variant.ofDouble(limits.limit(state)));
            }
        }
    }

    @Override
    protected void declare(List<ConditionField> out) {
        super.declare(out);
        for (LimitState state : LimitState.values()) {
            if (limits.has(state)) {
                out.add(ConditionField.property(state.limitField(), NodeIds.Double));
            }
        }
    }
}
