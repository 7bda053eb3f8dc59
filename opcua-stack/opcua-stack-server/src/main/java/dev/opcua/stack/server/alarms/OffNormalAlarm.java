package dev.opcua.stack.server.alarms;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.subscriptions.events.FieldPath;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An alarm that is active while its input differs from a normal value (Part 9, 5.8.24.2
 * OffNormalAlarmType): {@code NormalState} names the variable that holds the normal value; the
 * alarm compares each input with that value (the same built-in type and value) and takes
 * {@code activeSeverity} while off normal.
 */
public final class OffNormalAlarm extends AlarmCondition {

    /** OffNormalAlarmType (Part 9, 5.8.24.2). */
    public static final NodeId TYPE = NodeId.ns0(NodeIds.OffNormalAlarmType);

    private final NodeId normalState;
    private final int normalSeverity;
    private final int activeSeverity;
    // guarded by this
    private Variant normalValue;
    private Variant lastValue = Variant.NULL;

    /**
     * @param normalState the variable holding the normal value (NormalState)
     * @param normalValue the normal value now
     */
    public OffNormalAlarm(ConditionIdentity identity, NodeId inputNode, NodeId normalState, Variant normalValue,
            int normalSeverity, int activeSeverity, boolean confirmable) {
        super(identity, inputNode, normalSeverity, confirmable);
        checkSeverity(activeSeverity);
        this.normalState = Objects.requireNonNull(normalState, "normalState");
        this.normalValue = Objects.requireNonNull(normalValue, "normalValue");
        this.normalSeverity = normalSeverity;
        this.activeSeverity = activeSeverity;
    }

    @Override
    public NodeId typeDefinition() {
        return TYPE;
    }

    public NodeId normalState() {
        return normalState;
    }

    public synchronized Variant normalValue() {
        return normalValue;
    }

    @Override
    protected boolean apply(Variant value) {
        lastValue = value;
        return setActive(!value.equals(normalValue), value.equals(normalValue) ? normalSeverity : activeSeverity);
    }

    @Override
    protected LocalizedText stateMessage() {
        String name = identity().conditionName();
        return LocalizedText.of("en", isActive() ? name + " is off normal (" + text(lastValue) + ", normal "
                + text(normalValue) + ")" : name + " is normal (" + text(lastValue) + ")");
    }

    private static String text(Variant v) {
        return String.valueOf(v.value());
    }

    @Override
    protected void collectFields(Map<FieldPath, Variant> out) {
        super.collectFields(out);
        out.put(ConditionFields.NORMAL_STATE, Variant.of(normalState));
    }

    @Override
    protected void declare(List<ConditionField> out) {
        super.declare(out);
        out.add(ConditionField.property(ConditionFields.NORMAL_STATE, NodeIds.NodeId));
    }
}
