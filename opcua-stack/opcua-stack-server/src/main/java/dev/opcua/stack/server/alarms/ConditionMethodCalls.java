package dev.opcua.stack.server.alarms;

import dev.opcua.stack.server.audit.AuditContext;
import dev.opcua.stack.server.audit.AuditLog;
import dev.opcua.stack.server.audit.AuditRecords;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.ObjectNode;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.alarms.ConditionNodes.ConditionMethod;
import dev.opcua.stack.server.alarms.ConditionNodes.Instance;
import dev.opcua.stack.server.nodes.CallOperation;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.session.Identity;
import java.util.Map;

/**
 * Answers Call (Part 4, 5.12.2) of the condition methods Enable, Disable, AddComment (Part 9, 5.5.4 to
 * 5.5.6), Acknowledge and Confirm (Part 9, 5.7.3 and 5.7.4), called with the condition as object and
 * either the instance's method or the method of the type (i=9027, 9028, 9029, 9111, 9113).
 *
 * <p>Unknown object: BadNodeIdUnknown; a node that is not an object: BadNodeIdInvalid; a method the
 * object does not offer: BadMethodInvalid; missing or extra inputs: BadArgumentsMissing /
 * BadTooManyArguments; inputs of the wrong type: BadInvalidArgument with BadTypeMismatch per input;
 * the state machine's refusals as the condition states them. The caller's user name becomes
 * ClientUserId (Part 9, 5.5.2).
 */
final class ConditionMethodCalls {

    private final NodeStore store;
    private final Map<NodeId, Instance> instances;
    private final Map<NodeId, Instance> byMethod;
    private volatile AuditLog audit = AuditLog.disabled();

    /**
     * @param store the nodes of the conditions, for telling an unknown object from one that is no condition
     * @param instances the condition instances by their NodeId
     * @param byMethod the condition instances by the NodeIds of their own methods
     */
    ConditionMethodCalls(NodeStore store, Map<NodeId, Instance> instances, Map<NodeId, Instance> byMethod) {
        this.store = store;
        this.instances = instances;
        this.byMethod = byMethod;
    }

    void audit(AuditLog value) {
        audit = value;
    }

    void call(OperationContext context, CallOperation operation) {
        Instance instance = instances.get(operation.objectId());
        if (instance == null) {
            UaNode node = store.get(operation.objectId());
            operation.fail(node == null ? StatusCodes.BadNodeIdUnknown
                    : node instanceof ObjectNode ? StatusCodes.BadMethodInvalid : StatusCodes.BadNodeIdInvalid);
            return;
        }
        ConditionMethod method;
        Instance owner = byMethod.get(operation.methodId());
        if (owner != null) {
            method = owner == instance ? owner.methods().get(operation.methodId()) : null;
        } else {
            method = ConditionMethod.ofTypeMethod(operation.methodId());
        }
        Condition condition = instance.condition();
        if (method == null || !method.appliesTo(condition)) {
            operation.fail(StatusCodes.BadMethodInvalid);
            return;
        }
        Variant[] inputs = operation.inputArguments();
        int expected = method.inputs().length;
        if (inputs.length < expected) {
            operation.fail(StatusCodes.BadArgumentsMissing);
            return;
        }
        if (inputs.length > expected) {
            operation.fail(StatusCodes.BadTooManyArguments);
            return;
        }
        if (expected == 2) {
            StatusCode[] results = {check(inputs[0], BuiltinType.ByteString), check(inputs[1], BuiltinType.LocalizedText)};
            if (!results[0].isGood() || !results[1].isGood()) {
                operation.fail(StatusCodes.BadInvalidArgument, results);
                return;
            }
        }
        String user = user(context);
        try {
            switch (method) {
                case ENABLE -> condition.enable(user);
                case DISABLE -> condition.disable(user);
                case ADD_COMMENT -> condition.addComment(eventId(inputs[0]), comment(inputs[1]), user);
                case ACKNOWLEDGE -> ((AcknowledgeableCondition) condition).acknowledge(eventId(inputs[0]),
                        comment(inputs[1]), user);
                case CONFIRM -> ((AcknowledgeableCondition) condition).confirm(eventId(inputs[0]), comment(inputs[1]),
                        user);
            }
            operation.complete(new Variant[0]);
            audit(context, method, operation, inputs, StatusCodes.Good, null);
        } catch (UaException e) {
            operation.fail(e.statusCode().value());
            audit(context, method, operation, inputs, e.statusCode().value(), e.getMessage());
        }
    }

    /** The audit event of a condition method (Part 9, 5.10), when the server audits. */
    private void audit(OperationContext context, ConditionMethod method, CallOperation operation, Variant[] inputs,
            int status, String reason) {
        AuditLog log = audit;
        if (!log.enabled()) {
            return;
        }
        AuditContext who = context != null && context.session() != null
                ? context.session().auditContext(context.channel(), null)
                : new AuditContext(AuditContext.ANONYMOUS, null, null, null, null, 0);
        boolean commented = inputs.length == 2;
        log.raise(AuditRecords.conditionMethod(who, AuditRecords.ConditionMethod.valueOf(method.name()),
                operation.objectId(), operation.methodId(), inputs, commented ? eventId(inputs[0]) : null,
                commented ? comment(inputs[1]) : null, status, reason));
    }

    /** Good, or BadTypeMismatch for an input that is neither null nor a scalar of the type. */
    private static StatusCode check(Variant input, BuiltinType type) {
        boolean fits = input.isNull() || input.type() == type && !input.isArray();
        return fits ? StatusCode.GOOD : StatusCode.of(StatusCodes.BadTypeMismatch);
    }

    private static ByteString eventId(Variant input) {
        return input.isNull() ? ByteString.NULL : (ByteString) input.value();
    }

    private static LocalizedText comment(Variant input) {
        return input.isNull() ? LocalizedText.NULL : (LocalizedText) input.value();
    }

    /** ClientUserId (Part 9, 5.5.2): the user name of the session, or its token type. */
    private static String user(OperationContext context) {
        if (context == null || context.session() == null) {
            return "";
        }
        Identity identity = context.session().identity();
        if (identity == null) {
            return "";
        }
        return identity.userName() != null ? identity.userName() : identity.tokenType().name();
    }
}
