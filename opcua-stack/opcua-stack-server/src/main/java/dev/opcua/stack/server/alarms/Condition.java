package dev.opcua.stack.server.alarms;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.subscriptions.events.FieldPath;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A condition instance (Part 9, 5.5 ConditionType): its enabled state, quality, severity, comment
 * and retain flag, the Enable, Disable and AddComment methods with their state machine (Part 9,
 * 5.5.4 to 5.5.6), and an event for every change of state.
 *
 * <p>One branch only (BranchId is always null): the server keeps no previous states of a condition.
 * Every change produces a new event with a new EventId; the condition remembers the last ones so
 * that methods may name any of them (an acknowledgement racing a newer event still succeeds), and
 * keeps its last event for ConditionRefresh, which replays it unchanged (Part 9, 5.5.7: same
 * EventId). A disabled condition reports nothing but the Disable itself and ignores methods other
 * than Enable (BadConditionDisabled).
 *
 * <p>Thread-safe: each change runs under the condition's lock, and its listener sees the changes in
 * order.
 */
public abstract class Condition {

    /** ConditionType (Part 9, 5.5.2). */
    public static final NodeId CONDITION_TYPE = NodeId.ns0(NodeIds.ConditionType);
    /** How many of its last EventIds a condition accepts in method calls. */
    static final int REMEMBERED_EVENT_IDS = 32;
    private static final LocalizedText ENABLED = LocalizedText.of("en", "Enabled");
    private static final LocalizedText DISABLED = LocalizedText.of("en", "Disabled");

    private final ConditionIdentity identity;
    private ConditionListener listener = ConditionListener.NONE;
    private final ArrayDeque<ByteString> recentEventIds = new ArrayDeque<>(REMEMBERED_EVENT_IDS);

    // guarded by this
    private boolean enabled = true;
    private DateTime enabledTime = DateTime.now();
    private int severity;
    private int lastSeverity;
    private DateTime severityTime = DateTime.now();
    private LocalizedText message;
    private StatusCode quality = StatusCode.GOOD;
    private DateTime qualityTime = DateTime.now();
    private LocalizedText comment = LocalizedText.NULL;
    private DateTime commentTime = DateTime.now();
    private String clientUserId = "";
    private boolean retain;
    private UaEvent lastEvent;

    /**
     * @param severity the initial Severity, 1..1000 (Part 5, 6.4.2)
     */
    protected Condition(ConditionIdentity identity, int severity) {
        this.identity = Objects.requireNonNull(identity, "identity");
        checkSeverity(severity);
        this.severity = severity;
        this.lastSeverity = severity;
        this.message = LocalizedText.of(identity.conditionName());
    }

    static void checkSeverity(int severity) {
        if (severity < 1 || severity > 1000) {
            throw new IllegalArgumentException("Severity " + severity + " is outside 1..1000 (Part 5, 6.4.2)");
        }
    }

    public ConditionIdentity identity() {
        return identity;
    }

    public NodeId nodeId() {
        return identity.nodeId();
    }

    /** The condition's ObjectType, the EventType of its events. */
    public abstract NodeId typeDefinition();

    /** Sets who is told of changes; done once by the manager before the condition is used. */
    synchronized void listener(ConditionListener value) {
        listener = Objects.requireNonNull(value, "listener");
    }

    // ---- state -------------------------------------------------------------------------------

    public synchronized boolean isEnabled() {
        return enabled;
    }

    public synchronized int severity() {
        return severity;
    }

    public synchronized int lastSeverity() {
        return lastSeverity;
    }

    public synchronized LocalizedText comment() {
        return comment;
    }

    public synchronized LocalizedText message() {
        return message;
    }

    public synchronized StatusCode quality() {
        return quality;
    }

    /** Whether the condition is in an interesting state, and so reported by ConditionRefresh (Part 9, 5.5.2 Retain). */
    public synchronized boolean isRetained() {
        return retain;
    }

    /** The last event reported, or null before the first change. */
    public synchronized UaEvent lastEvent() {
        return lastEvent;
    }

    /** The fields of the condition now, by browse path: its variables' values and its events' fields. */
    public synchronized Map<FieldPath, Variant> fields() {
        Map<FieldPath, Variant> out = new LinkedHashMap<>();
        collectFields(out);
        return Collections.unmodifiableMap(out);
    }

    /** The variables and objects an instance carries below its node, in browse order. */
    public final List<ConditionField> declarations() {
        List<ConditionField> out = new ArrayList<>();
        declare(out);
        return List.copyOf(out);
    }

    /** Hands the initial state to the listener without an event: the instance's variables get their values. */
    synchronized void initialize() {
        publish(null, false);
    }

    // ---- methods (Part 9, 5.5.4 to 5.5.6) ---------------------------------------------------

    /**
     * Enable (Part 9, 5.5.4): the condition evaluates and reports again.
     *
     * @throws UaException BadConditionAlreadyEnabled
     */
    public synchronized void enable(String user) {
        if (enabled) {
            throw new UaException(StatusCodes.BadConditionAlreadyEnabled, identity.conditionName() + " is enabled already");
        }
        enabled = true;
        enabledTime = DateTime.now();
        clientUserId = user == null ? "" : user;
        onEnabled();
        report(LocalizedText.of("en", "The condition was enabled"));
    }

    /**
     * Disable (Part 9, 5.5.5): one last event with EnabledState Disabled and Retain false, then silence.
     *
     * @throws UaException BadConditionAlreadyDisabled
     */
    public synchronized void disable(String user) {
        if (!enabled) {
            throw new UaException(StatusCodes.BadConditionAlreadyDisabled,
                    identity.conditionName() + " is disabled already");
        }
        enabled = false;
        enabledTime = DateTime.now();
        clientUserId = user == null ? "" : user;
        publish(LocalizedText.of("en", "The condition was disabled"), true);
    }

    /**
     * AddComment (Part 9, 5.5.6): sets Comment and ClientUserId.
     *
     * @throws UaException BadConditionDisabled, BadEventIdUnknown
     */
    public synchronized void addComment(ByteString eventId, LocalizedText text, String user) {
        checkMethodAllowed(eventId);
        setComment(text, user);
        report(message);
    }

    /**
     * Refuses a method on a disabled condition or with an EventId the condition did not report.
     *
     * @throws UaException BadConditionDisabled, BadEventIdUnknown
     */
    protected final void checkMethodAllowed(ByteString eventId) {
        if (!enabled) {
            throw new UaException(StatusCodes.BadConditionDisabled, identity.conditionName() + " is disabled");
        }
        if (eventId == null || eventId.isNull() || !recentEventIds.contains(eventId)) {
            throw new UaException(StatusCodes.BadEventIdUnknown,
                    "EventId " + eventId + " is not an event of " + identity.conditionName());
        }
    }

    /** Sets the comment (unless the text is null or empty) and who made it. */
    protected final void setComment(LocalizedText text, String user) {
        clientUserId = user == null ? "" : user;
        if (text != null && !text.isNull() && text.text() != null && !text.text().isEmpty()) {
            comment = text;
            commentTime = DateTime.now();
        }
    }

    // ---- for subclasses ----------------------------------------------------------------------

    /** Sets Severity; LastSeverity keeps the previous one (Part 9, 5.5.2). Called under the lock. */
    protected final void setSeverity(int value) {
        checkSeverity(value);
        if (value != severity) {
            lastSeverity = severity;
            severity = value;
            severityTime = DateTime.now();
        }
    }

    /** Sets Quality, the quality of the condition's input (Part 9, 5.5.2). Called under the lock. */
    protected final void setQuality(StatusCode value) {
        if (!value.equals(quality)) {
            quality = value;
            qualityTime = DateTime.now();
        }
    }

    /** Whether the condition is interesting now, while enabled: the Retain flag (Part 9, 5.5.2). */
    protected boolean computeRetain() {
        return false;
    }

    /** Called under the lock when the condition was enabled, before its event: re-evaluate the input. */
    protected void onEnabled() {
    }

    /**
     * Reports the state as it is now with this message: a new event, unless the condition is disabled.
     * Called under the lock after each change.
     */
    protected final void report(LocalizedText newMessage) {
        publish(newMessage, enabled);
    }

    private void publish(LocalizedText newMessage, boolean reported) {
        message = newMessage == null ? message : newMessage;
        retain = enabled && computeRetain();
        Map<FieldPath, Variant> fields = new LinkedHashMap<>();
        collectFields(fields);
        UaEvent event = null;
        if (reported) {
            UaEvent.Builder builder = UaEvent.builder(typeDefinition())
                    .sourceNode(identity.sourceNode())
                    .sourceName(identity.sourceName())
                    .message(message)
                    .severity(severity)
                    .nodeId(identity.nodeId());
            for (Map.Entry<FieldPath, Variant> field : fields.entrySet()) {
                builder.field(field.getKey(), field.getValue());
            }
            event = builder.build();
            lastEvent = event;
            if (recentEventIds.size() == REMEMBERED_EVENT_IDS) {
                recentEventIds.removeFirst();
            }
            recentEventIds.addLast(event.eventId());
        }
        listener.changed(this, event, Collections.unmodifiableMap(fields));
    }

    /** Adds the fields of this type; a subclass adds its own after calling this. Called under the lock. */
    protected void collectFields(Map<FieldPath, Variant> out) {
        out.put(ConditionFields.CONDITION_CLASS_ID, Variant.of(identity.conditionClassId()));
        out.put(ConditionFields.CONDITION_CLASS_NAME, Variant.of(identity.conditionClassName()));
        out.put(ConditionFields.CONDITION_NAME, Variant.ofString(identity.conditionName()));
        out.put(ConditionFields.BRANCH_ID, Variant.of(NodeId.NULL));
        out.put(ConditionFields.RETAIN, Variant.ofBoolean(retain));
        twoState(out, ConditionFields.ENABLED_STATE, enabled, ENABLED, DISABLED, enabledTime);
        out.put(ConditionFields.QUALITY, Variant.ofScalar(BuiltinType.StatusCode, quality));
        out.put(ConditionFields.QUALITY_SOURCE_TIMESTAMP, Variant.of(qualityTime));
        out.put(ConditionFields.LAST_SEVERITY, Variant.ofUInt16(lastSeverity));
        out.put(ConditionFields.LAST_SEVERITY_SOURCE_TIMESTAMP, Variant.of(severityTime));
        out.put(ConditionFields.COMMENT, Variant.of(comment));
        out.put(ConditionFields.COMMENT_SOURCE_TIMESTAMP, Variant.of(commentTime));
        out.put(ConditionFields.CLIENT_USER_ID, Variant.ofString(clientUserId));
    }

    /** The fields of a TwoStateVariable (Part 9, 5.2): its text, Id, TransitionTime, TrueState and FalseState. */
    protected static void twoState(Map<FieldPath, Variant> out, FieldPath state, boolean id, LocalizedText trueState,
            LocalizedText falseState, DateTime transitionTime) {
        out.put(state, Variant.of(id ? trueState : falseState));
        out.put(ConditionFields.id(state), Variant.ofBoolean(id));
        out.put(ConditionFields.transitionTime(state), Variant.of(transitionTime));
        out.put(ConditionFields.trueState(state), Variant.of(trueState));
        out.put(ConditionFields.falseState(state), Variant.of(falseState));
    }

    /** Adds the declarations of this type; a subclass adds its own after calling this. */
    protected void declare(List<ConditionField> out) {
        // BaseEventType's properties (Part 5, 6.4.2): an instance shows its last event's values
        out.add(ConditionField.property(FieldPath.EVENT_ID, NodeIds.ByteString));
        out.add(ConditionField.property(FieldPath.EVENT_TYPE, NodeIds.NodeId));
        out.add(ConditionField.property(FieldPath.SOURCE_NODE, NodeIds.NodeId));
        out.add(ConditionField.property(FieldPath.SOURCE_NAME, NodeIds.String));
        out.add(ConditionField.property(FieldPath.TIME, NodeIds.UtcTime));
        out.add(ConditionField.property(FieldPath.RECEIVE_TIME, NodeIds.UtcTime));
        out.add(ConditionField.property(FieldPath.MESSAGE, NodeIds.LocalizedText));
        out.add(ConditionField.property(FieldPath.SEVERITY, NodeIds.UInt16));
        out.add(ConditionField.property(ConditionFields.CONDITION_CLASS_ID, NodeIds.NodeId));
        out.add(ConditionField.property(ConditionFields.CONDITION_CLASS_NAME, NodeIds.LocalizedText));
        out.add(ConditionField.property(ConditionFields.CONDITION_NAME, NodeIds.String));
        out.add(ConditionField.property(ConditionFields.BRANCH_ID, NodeIds.NodeId));
        out.add(ConditionField.property(ConditionFields.RETAIN, NodeIds.Boolean));
        declareTwoState(out, ConditionFields.ENABLED_STATE);
        out.add(ConditionField.variable(ConditionFields.QUALITY, NodeIds.StatusCode, NodeIds.ConditionVariableType));
        out.add(ConditionField.property(ConditionFields.QUALITY_SOURCE_TIMESTAMP, NodeIds.UtcTime));
        out.add(ConditionField.variable(ConditionFields.LAST_SEVERITY, NodeIds.UInt16, NodeIds.ConditionVariableType));
        out.add(ConditionField.property(ConditionFields.LAST_SEVERITY_SOURCE_TIMESTAMP, NodeIds.UtcTime));
        out.add(ConditionField.variable(ConditionFields.COMMENT, NodeIds.LocalizedText, NodeIds.ConditionVariableType));
        out.add(ConditionField.property(ConditionFields.COMMENT_SOURCE_TIMESTAMP, NodeIds.UtcTime));
        out.add(ConditionField.property(ConditionFields.CLIENT_USER_ID, NodeIds.String));
    }

    /** Declares a TwoStateVariable with its Id, TransitionTime, TrueState and FalseState properties. */
    protected static void declareTwoState(List<ConditionField> out, FieldPath state) {
        out.add(ConditionField.variable(state, NodeIds.LocalizedText, NodeIds.TwoStateVariableType));
        out.add(ConditionField.property(ConditionFields.id(state), NodeIds.Boolean));
        out.add(ConditionField.property(ConditionFields.transitionTime(state), NodeIds.UtcTime));
        out.add(ConditionField.property(ConditionFields.trueState(state), NodeIds.LocalizedText));
        out.add(ConditionField.property(ConditionFields.falseState(state), NodeIds.LocalizedText));
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + identity.nodeId() + " " + identity.conditionName() + "]";
    }
}
