package dev.opcua.stack.server.certificates;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import java.util.Arrays;

/**
 * The input arguments of one method call, read by position with the type the method's InputArguments
 * declare (Part 4, 5.11.2.2): too few is Bad_ArgumentsMissing, too many Bad_TooManyArguments, and an
 * argument of another type Bad_InvalidArgument with Bad_TypeMismatch for that argument. A null Variant
 * stands for a null value where the type allows one (NodeId, String, ByteString, arrays).
 */
final class MethodArguments {

    private final String method;
    private final Variant[] inputs;

    /**
     * @throws UaException BadArgumentsMissing or BadTooManyArguments when there are not {@code count} arguments
     */
    MethodArguments(String method, Variant[] inputs, int count) {
        this.method = method;
        this.inputs = inputs;
        if (inputs.length < count) {
            throw new UaException(StatusCodes.BadArgumentsMissing, method + " takes " + count + " arguments, got "
                    + inputs.length);
        }
        if (inputs.length > count) {
            throw new UaException(StatusCodes.BadTooManyArguments, method + " takes " + count + " arguments, got "
                    + inputs.length);
        }
    }

    /** A NodeId argument; null for a null Variant or the null NodeId. */
    NodeId nodeId(int index, String name) {
        Variant v = inputs[index];
        if (v.isNull()) {
            return null;
        }
        NodeId id = (NodeId) scalar(index, name, BuiltinType.NodeId);
        return id.isNull() ? null : id;
    }

    /** A ByteString argument; null for a null Variant or a null ByteString. */
    byte[] byteString(int index, String name) {
        if (inputs[index].isNull()) {
            return null;
        }
        ByteString b = (ByteString) scalar(index, name, BuiltinType.ByteString);
        return b.isNull() ? null : b.bytes();
    }

    /** A ByteString[] argument; empty for a null Variant. */
    byte[][] byteStrings(int index, String name) {
        Variant v = inputs[index];
        if (v.isNull()) {
            return new byte[0][];
        }
        if (v.type() != BuiltinType.ByteString || !v.isArray()) {
            throw mismatch(index, name, "ByteString[]");
        }
        return Arrays.stream((ByteString[]) v.value()).map(b -> b == null || b.isNull() ? new byte[0] : b.bytes())
                .toArray(byte[][]::new);
    }

    /** A String argument; null for a null Variant. */
    String string(int index, String name) {
        return inputs[index].isNull() ? null : (String) scalar(index, name, BuiltinType.String);
    }

    boolean bool(int index, String name) {
        return (Boolean) scalar(index, name, BuiltinType.Boolean);
    }

    /** A UInt32 argument. */
    long uint32(int index, String name) {
        return (Long) scalar(index, name, BuiltinType.UInt32);
    }

    /** An Int32 argument. */
    int int32(int index, String name) {
        return (Integer) scalar(index, name, BuiltinType.Int32);
    }

    /** A UInt64 argument, as the unsigned bits in a long. */
    long uint64(int index, String name) {
        return (Long) scalar(index, name, BuiltinType.UInt64);
    }

    /** A Byte (unsigned) argument, such as FileType.Open's mode. */
    int byteValue(int index, String name) {
        return ((Number) scalar(index, name, BuiltinType.Byte)).intValue();
    }

    private Object scalar(int index, String name, BuiltinType type) {
        Variant v = inputs[index];
        if (v.type() != type || v.isArray() || v.value() == null) {
            throw mismatch(index, name, type.name());
        }
        return v.value();
    }

    private InvalidArgument mismatch(int index, String name, String expected) {
        return new InvalidArgument(index, inputs.length, method + " argument " + index + " (" + name + ") must be "
                + expected + ", was " + inputs[index]);
    }

    /** One argument of the wrong type: the call's Bad_InvalidArgument and Bad_TypeMismatch for that argument. */
    static final class InvalidArgument extends UaException {

        private final int index;
        private final int count;

        InvalidArgument(int index, int count, String message) {
            super(StatusCodes.BadInvalidArgument, message);
            this.index = index;
            this.count = count;
        }

        /** Good for every argument but the wrong one (Part 4, 5.11.2.2 inputArgumentResults). */
        StatusCode[] inputArgumentResults() {
            StatusCode[] results = new StatusCode[count];
            Arrays.fill(results, StatusCode.GOOD);
            results[index] = StatusCode.of(StatusCodes.BadTypeMismatch);
            return results;
        }
    }
}
