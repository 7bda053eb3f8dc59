package dev.opcua.spring.boot.server.annotation;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.datatypes.RecordDataTypeManager;
import dev.opcua.stack.server.history.HistoryRecorder;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.subscriptions.items.DataChangeBroker;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads, writes and calls the bean members behind the nodes of an {@link OpcUaAnnotatedNodeManager}
 * (Part 4, 5.11.2 Read, 5.11.4 Write, 5.12.2 Call; the stack has checked access, data types and
 * argument counts before a member is touched), converting between Java values and Variants, and
 * hands the values of changed members to the monitored items (Part 4, 5.13) and the history recorder.
 *
 * <p>A member that fails gives the client BadInternalError; the cause is logged at WARN the first
 * time per member and at DEBUG after, so that a broken getter polled every 100 ms does not flood the log.
 */
final class UaBeanMemberAccess {

    private static final Logger log = LoggerFactory.getLogger(UaBeanMemberAccess.class);
    private static final Variant[] NO_VARIANTS = {};

    /** The DataTypes of the record variables; null when there are none. */
    private final RecordDataTypeManager types;
    /** Members whose failures were logged at WARN once already; later ones go to DEBUG. */
    private final Set<String> warned = ConcurrentHashMap.newKeySet();
    /** Where signalled changes of historizing variables are recorded; asked per change. */
    private volatile Supplier<HistoryRecorder> recorder = () -> null;
    private volatile DataChangeBroker broker;

    UaBeanMemberAccess(RecordDataTypeManager types) {
        this.types = types;
    }

    /** Where pushed changes go from now on; null stops pushing. */
    void connect(DataChangeBroker dataChanges) {
        this.broker = dataChanges;
    }

    /** Where pushed changes of historizing variables are recorded; null: nowhere. */
    void connectHistory(Supplier<HistoryRecorder> history) {
        this.recorder = history == null ? () -> null : history;
    }

    /**
     * Reads the member's current value and hands it to the items that monitor its node and, for a
     * historizing variable, to the history recorder; does nothing before the node exists or when neither
     * wants it.
     */
    void push(UaVariableBinding binding) {
        DataChangeBroker dataChanges = broker;
        NodeId nodeId = binding.nodeId;
        if (nodeId == null) {
            return;
        }
        boolean monitored = dataChanges != null && dataChanges.isMonitored(nodeId);
        HistoryRecorder history = binding.model.historizing() ? recorder.get() : null;
        if (!monitored && history == null) {
            return;
        }
        DataValue value = readValue(binding.model);
        if (monitored) {
            dataChanges.valueChanged(nodeId, value);
        }
        if (history != null) {
            history.record(nodeId, value);
        }
    }

    /** Reads through the resolved handle; a failure becomes the status of the read (and is logged). */
    Variant read(UaVariableModel variable) {
        Object value;
        try {
            value = (Object) variable.getter().invokeExact();
        } catch (UaException e) {
            throw e;
        } catch (Error e) {
            throw e;
        } catch (Throwable e) {
            throw failed(variable.member(), "reading", e);
        }
        try {
            Class<? extends Record> record = variable.converter().recordType();
            return record != null ? types.toVariant((Record) value) : variable.converter().toVariant(value);
        } catch (RuntimeException e) {
            throw failed(variable.member(), "converting the value " + value + " to " + variable.builtinType() + " of", e);
        }
    }

    /** The read as a DataValue: a failure is its status, for a value source of a node. */
    DataValue readValue(UaVariableModel variable) {
        try {
            return DataValue.of(read(variable), StatusCode.GOOD, DateTime.now(), null);
        } catch (UaException e) {
            return DataValue.ofStatus(e.statusCode());
        }
    }

    void write(UaVariableBinding binding, Variant value) {
        UaVariableModel variable = binding.model;
        Class<? extends Record> record = variable.converter().recordType();
        // a record arrives as its structure, decoded by the codec of its DataType, and becomes a new instance
        Object javaValue = record != null ? types.fromVariant(value, record) : variable.converter().fromVariant(value);
        if (javaValue == null && variable.converter().isPrimitive()) {
            throw new UaException(StatusCodes.BadTypeMismatch, variable.member() + " takes no null value");
        }
        try {
            variable.setter().invokeExact(javaValue);
        } catch (IllegalArgumentException e) {
            throw new UaException(StatusCode.of(StatusCodes.BadOutOfRange), e.getMessage(), e);
        } catch (UaException e) {
            throw e;
        } catch (Error e) {
            throw e;
        } catch (Throwable e) {
            throw failed(variable.member(), "writing", e);
        }
        if (variable.signalsChanges()) {
            push(binding); // a write is a change the bean did not signal itself
        }
    }

    /** Calls the bean's method; the Identity parameter, if any, gets the user of the calling session. */
    Variant[] call(UaMethodModel method, OperationContext context, Variant[] inputs) {
        Object[] arguments = new Object[method.parameterCount()];
        int input = 0;
        for (int slot = 0; slot < arguments.length; slot++) {
            if (slot == method.callerSlot()) {
                arguments[slot] = context.identity();
                continue;
            }
            UaArgumentModel argument = method.inputs().get(input);
            arguments[slot] = argument.converter().fromVariant(inputs[input++]);
            if (arguments[slot] == null && argument.converter().isPrimitive()) {
                throw new UaException(StatusCodes.BadInvalidArgument, "argument " + argument.name() + " of "
                        + method.member() + " must not be null");
            }
        }
        Object result;
        try {
            result = (Object) method.invoker().invokeExact(arguments);
        } catch (UaException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new UaException(StatusCode.of(StatusCodes.BadInvalidArgument), e.getMessage(), e);
        } catch (IllegalStateException e) {
            throw new UaException(StatusCode.of(StatusCodes.BadInvalidState), e.getMessage(), e);
        } catch (Error e) {
            throw e;
        } catch (Throwable e) {
            throw failed(method.member(), "calling", e);
        }
        try {
            return outputs(method, result);
        } catch (UaException e) {
            throw e;
        } catch (Error e) {
            throw e;
        } catch (Throwable e) {
            throw failed(method.member(), "converting the result of", e);
        }
    }

    private static Variant[] outputs(UaMethodModel method, Object result) throws Throwable {
        List<UaArgumentModel> outputs = method.outputs();
        if (outputs.isEmpty()) {
            return NO_VARIANTS;
        }
        if (method.outputReaders() == null) {
            return new Variant[] {outputs.get(0).converter().toVariant(result)};
        }
        Variant[] values = new Variant[outputs.size()];
        for (int i = 0; i < values.length; i++) {
            Object component = result == null ? null : (Object) method.outputReaders().get(i).invokeExact(result);
            values[i] = outputs.get(i).converter().toVariant(component);
        }
        return values;
    }

    /** BadInternalError for the client; the cause logged, at WARN the first time per member. */
    private UaException failed(String member, String what, Throwable cause) {
        String message = what + " " + member + " failed";
        if (warned.add(what + member)) {
            log.warn("{} (BadInternalError; repeats are logged at DEBUG)", message, cause);
        } else {
            log.debug(message, cause);
        }
        return new UaException(StatusCode.of(StatusCodes.BadInternalError), message + ": " + cause, cause);
    }
}
