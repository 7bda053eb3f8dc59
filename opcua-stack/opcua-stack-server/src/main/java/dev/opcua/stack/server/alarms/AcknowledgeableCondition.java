package dev.opcua.stack.server.alarms;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.subscriptions.events.FieldPath;
import java.util.List;
import java.util.Map;

/**
 * A condition an operator acknowledges and, optionally, confirms (Part 9, 5.7 AcknowledgeableConditionType):
 * AckedState and ConfirmedState with the Acknowledge and Confirm methods (Part 9, 5.7.3 and 5.7.4).
 *
 * <p>State machine (Part 9, 5.7.2 and its state figure): a new occurrence that needs attention (an
 * alarm becoming active) sets AckedState to Unacknowledged ({@link #requireAcknowledge}); Acknowledge
 * sets it to Acknowledged and, when the condition has a ConfirmedState, ConfirmedState to
 * Unconfirmed; Confirm sets it back to Confirmed. Acknowledging an acknowledged condition is
 * BadConditionBranchAlreadyAcked, confirming a confirmed one BadConditionBranchAlreadyConfirmed, and
 * both need an EventId the condition reported (BadEventIdUnknown) and an enabled condition
 * (BadConditionDisabled). The condition is retained while unacknowledged or unconfirmed.
 */
public abstract class AcknowledgeableCondition extends Condition {

    private static final LocalizedText ACKNOWLEDGED = LocalizedText.of("en", "Acknowledged");
    private static final LocalizedText UNACKNOWLEDGED = LocalizedText.of("en", "Unacknowledged");
    private static final LocalizedText CONFIRMED = LocalizedText.of("en", "Confirmed");
    private static final LocalizedText UNCONFIRMED = LocalizedText.of("en", "Unconfirmed");

    private final boolean confirmable;

    // guarded by this
    private boolean acked = true;
    private DateTime ackedTime = DateTime.now();
    private boolean confirmed = true;
    private DateTime confirmedTime = DateTime.now();

    /**
     * @param confirmable whether the instance has the optional ConfirmedState and Confirm method
     */
    protected AcknowledgeableCondition(ConditionIdentity identity, int severity, boolean confirmable) {
        super(identity, severity);
        this.confirmable = confirmable;
    }

    /** Whether the condition has a ConfirmedState and accepts Confirm. */
    public boolean isConfirmable() {
        return confirmable;
    }

    public synchronized boolean isAcked() {
        return acked;
    }

    public synchronized boolean isConfirmed() {
        return confirmed;
    }

    /**
     * Acknowledge (Part 9, 5.7.3).
     *
     * @throws UaException BadConditionDisabled, BadEventIdUnknown, BadConditionBranchAlreadyAcked
     */
    public synchronized void acknowledge(ByteString eventId, LocalizedText comment, String user) {
        checkMethodAllowed(eventId);
        if (acked) {
            throw new UaException(StatusCodes.BadConditionBranchAlreadyAcked,
                    identity().conditionName() + " is acknowledged already");
        }
        acked = true;
        ackedTime = DateTime.now();
        if (confirmable) {
            confirmed = false;
            confirmedTime = ackedTime;
        }
        setComment(comment, user);
        report(message());
    }

    /**
     * Confirm (Part 9, 5.7.4).
     *
     * @throws UaException BadMethodInvalid on a condition without ConfirmedState, BadConditionDisabled,
     *         BadEventIdUnknown, BadConditionBranchAlreadyConfirmed
     */
    public synchronized void confirm(ByteString eventId, LocalizedText comment, String user) {
        if (!confirmable) {
            throw new UaException(StatusCodes.BadMethodInvalid, identity().conditionName() + " has no ConfirmedState");
        }
        checkMethodAllowed(eventId);
        if (confirmed) {
            throw new UaException(StatusCodes.BadConditionBranchAlreadyConfirmed,
                    identity().conditionName() + " is confirmed already");
        }
        confirmed = true;
        confirmedTime = DateTime.now();
        setComment(comment, user);
        report(message());
    }

    /** A new occurrence needs an acknowledgement: AckedState Unacknowledged. Called under the lock. */
    protected final void requireAcknowledge() {
        if (acked) {
            acked = false;
            ackedTime = DateTime.now();
        }
    }

    @Override
    protected boolean computeRetain() {
        return !acked || confirmable && !confirmed;
    }

    @Override
    protected void collectFields(Map<FieldPath, Variant> out) {
        super.collectFields(out);
        twoState(out, ConditionFields.ACKED_STATE, acked, ACKNOWLEDGED, UNACKNOWLEDGED, ackedTime);
        if (confirmable) {
            twoState(out, ConditionFields.CONFIRMED_STATE, confirmed, CONFIRMED, UNCONFIRMED, confirmedTime);
        }
    }

    @Override
    protected void declare(List<ConditionField> out) {
        super.declare(out);
        declareTwoState(out, ConditionFields.ACKED_STATE);
        if (confirmable) {
            declareTwoState(out, ConditionFields.CONFIRMED_STATE);
        }
    }

    /** AcknowledgeableConditionType (Part 9, 5.7.2). */
    static final NodeId ACKNOWLEDGEABLE_CONDITION_TYPE = NodeId.ns0(NodeIds.AcknowledgeableConditionType);
}
