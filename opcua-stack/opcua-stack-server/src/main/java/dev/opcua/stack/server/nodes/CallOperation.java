package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DiagnosticInfo;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.CallMethodRequest;
import dev.opcua.stack.core.types.structured.CallMethodResult;

/**
 * One method call of a Call request (Part 4, 5.12.2), handed to the node manager that owns its
 * object: the object provides the context of the call. The manager completes it with a result,
 * the outputs of a successful call or a failure status.
 */
public final class CallOperation {

    private static final NodeId SERVER_OBJECT = NodeId.ns0(NodeIds.Server);

    private static final Variant[] NO_VARIANTS = {};
    private static final StatusCode[] NO_STATUS = {};

    private final CallMethodRequest item;
    private CallMethodResult result;

    CallOperation(CallMethodRequest item) {
        this.item = item;
    }

    /** The object, method and input arguments as the client sent them. */
    public CallMethodRequest item() {
        return item;
    }

    public NodeId objectId() {
        return item.objectId();
    }

    public NodeId methodId() {
        return item.methodId();
    }

    /** The input arguments, never null (an absent list is empty). */
    public Variant[] inputArguments() {
        return item.inputArguments() == null ? NO_VARIANTS : item.inputArguments();
    }

    /** Sets the whole result. */
    public void complete(CallMethodResult result) {
        this.result = result;
    }

    /** A successful call: Good, every input argument Good, and the outputs. */
    public void complete(Variant[] outputArguments) {
        StatusCode[] inputs = new StatusCode[inputArguments().length];
        java.util.Arrays.fill(inputs, StatusCode.GOOD);
        complete(new CallMethodResult(StatusCode.GOOD, inputs, null,
                outputArguments == null ? NO_VARIANTS : outputArguments));
    }

    /** A failed call without per-argument results, e.g. BadMethodInvalid. */
    public void fail(int status) {
        complete(new CallMethodResult(StatusCode.of(status), NO_STATUS, null, NO_VARIANTS));
    }

    /**
     * A call refused for its arguments: {@code status} (BadInvalidArgument) and one result per input
     * argument saying which are wrong (Part 4, 5.12.2.2).
     */
    public void fail(int status, StatusCode[] inputArgumentResults) {
        complete(new CallMethodResult(StatusCode.of(status), inputArgumentResults, null, NO_VARIANTS));
    }

    /**
     * Checks that the call has exactly {@code count} input arguments, each a scalar UInt32, as the standard's methods
     * of subscription ids and counts take them (Part 4, 5.12.2.2). Otherwise fails the call (BadArgumentsMissing,
     * BadTooManyArguments, or BadInvalidArgument with BadTypeMismatch for each wrong argument) and answers false.
     */
    public boolean requireUInt32Arguments(int count) {
        Variant[] inputs = inputArguments();
        if (inputs.length < count) {
            fail(StatusCodes.BadArgumentsMissing);
            return false;
        }
        if (inputs.length > count) {
            fail(StatusCodes.BadTooManyArguments);
            return false;
        }
        StatusCode[] results = new StatusCode[count];
        boolean valid = true;
        for (int i = 0; i < count; i++) {
            boolean fits = inputs[i].type() == BuiltinType.UInt32 && !inputs[i].isArray();
            results[i] = fits ? StatusCode.GOOD : StatusCode.of(StatusCodes.BadTypeMismatch);
            valid &= fits;
        }
        if (!valid) {
            fail(StatusCodes.BadInvalidArgument, results);
        }
        return valid;
    }

    /**
     * Checks a call of one of the Server object's subscription methods (Part 5, 9: GetMonitoredItems,
     * SetSubscriptionDurable): on the Server object (i=2253), with {@code count} scalar UInt32 arguments (see
     * {@link #requireUInt32Arguments}), from a session. Otherwise fails the call (BadMethodInvalid on another
     * object, the argument statuses, BadSessionIdInvalid without a session) and answers false.
     */
    public boolean requireServerMethodOfSession(OperationContext context, int count) {
        if (!SERVER_OBJECT.equals(objectId())) {
            fail(StatusCodes.BadMethodInvalid);
            return false;
        }
        if (!requireUInt32Arguments(count)) {
            return false;
        }
        if (context.session() == null) {
            fail(StatusCodes.BadSessionIdInvalid);
            return false;
        }
        return true;
    }

    public boolean isComplete() {
        return result != null;
    }

    /** The result; BadInternalError when the manager left the call unanswered. */
    public CallMethodResult result() {
        return result != null ? result : new CallMethodResult(StatusCode.of(StatusCodes.BadInternalError), NO_STATUS,
                (DiagnosticInfo[]) null, NO_VARIANTS);
    }
}
