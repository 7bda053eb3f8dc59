package dev.opcua.stack.server.alarms;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.subscriptions.events.FieldPath;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An alarm (Part 9, 5.8 AlarmConditionType): an acknowledgeable condition with an ActiveState,
 * driven by the value of its InputNode.
 *
 * <p>Each {@link #input} (a sample of the input variable) is evaluated by the subclass ({@link #apply});
 * a change of the active state, its sub-state or severity, or of the input's quality, is reported.
 * Becoming active requires a new acknowledgement. A bad input status sets Quality and leaves the
 * state as it was; a disabled alarm keeps the last input and evaluates it when enabled again.
 * Shelving and suppression are not offered: SuppressedOrShelved is always false.
 */
public abstract class AlarmCondition extends AcknowledgeableCondition {

    private static final LocalizedText ACTIVE = LocalizedText.of("en", "Active");
    private static final LocalizedText INACTIVE = LocalizedText.of("en", "Inactive");

    private final NodeId inputNode;

    // guarded by this
    private boolean active;
    private DateTime activeTime = DateTime.now();
    private DataValue lastInput;

    /**
     * @param inputNode the variable whose value the alarm evaluates (InputNode, Part 9, 5.8.2)
     * @param severity the Severity while inactive
     */
    protected AlarmCondition(ConditionIdentity identity, NodeId inputNode, int severity, boolean confirmable) {
        super(identity, severity, confirmable);
        this.inputNode = Objects.requireNonNull(inputNode, "inputNode");
    }

    public NodeId inputNode() {
        return inputNode;
    }

    public synchronized boolean isActive() {
        return active;
    }

    /** The last input evaluated, or null before the first. */
    public synchronized DataValue lastInput() {
        return lastInput;
    }

    /**
     * A new value of the input variable: evaluated now, and the change reported, unless the alarm is
     * disabled (then it is evaluated on Enable).
     */
    public synchronized void input(DataValue value) {
        Objects.requireNonNull(value, "value");
        lastInput = value;
        if (isEnabled() && evaluate(value)) {
            report(stateMessage());
        }
    }

    /** A new good value of the input variable, see {@link #input(DataValue)}. */
    public void input(Variant value) {
        input(DataValue.of(value));
    }

    @Override
    protected void onEnabled() {
        if (lastInput != null) {
            evaluate(lastInput);
        }
    }

    private boolean evaluate(DataValue value) {
        StatusCode status = value.statusCode() == null ? StatusCode.GOOD : value.statusCode();
        StatusCode before = quality();
        if (status.isBad()) {
            setQuality(status);
            return !status.equals(before);
        }
        setQuality(status);
        return apply(value.value()) || !status.equals(before);
    }

    /**
     * Evaluates a value of good or uncertain quality: sets the state with {@link #setActive} and
     * returns whether anything changed. Called under the lock.
     */
    protected abstract boolean apply(Variant value);

    /** The Message for the state now, e.g. "Temperature is High". Called under the lock. */
    protected abstract LocalizedText stateMessage();

    /**
     * Sets ActiveState and Severity; becoming active needs a new acknowledgement. Called under the lock.
     *
     * @return whether the active state or the severity changed
     */
    protected final boolean setActive(boolean value, int newSeverity) {
        boolean changed = value != active || newSeverity != severity();
        if (value && !active) {
            requireAcknowledge();
        }
        if (value != active) {
            active = value;
            activeTime = DateTime.now();
        }
        setSeverity(newSeverity);
        return changed;
    }

    @Override
    protected boolean computeRetain() {
        return active || super.computeRetain();
    }

    @Override
    protected void collectFields(Map<FieldPath, Variant> out) {
        super.collectFields(out);
        twoState(out, ConditionFields.ACTIVE_STATE, active, ACTIVE, INACTIVE, activeTime);
        out.put(ConditionFields.INPUT_NODE, Variant.of(inputNode));
        out.put(ConditionFields.SUPPRESSED_OR_SHELVED, Variant.ofBoolean(false));
    }

    @Override
    protected void declare(List<ConditionField> out) {
        super.declare(out);
        declareTwoState(out, ConditionFields.ACTIVE_STATE);
        out.add(ConditionField.property(ConditionFields.INPUT_NODE, NodeIds.NodeId));
        out.add(ConditionField.property(ConditionFields.SUPPRESSED_OR_SHELVED, NodeIds.Boolean));
    }
}
