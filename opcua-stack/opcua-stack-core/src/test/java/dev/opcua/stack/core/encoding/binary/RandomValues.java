package dev.opcua.stack.core.encoding.binary;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.DiagnosticInfo;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.builtin.XmlElement;
import dev.opcua.stack.core.types.structured.Argument;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.UUID;

/**
 * Fills values of any built-in or generated type with random content, for round-trip tests.
 *
 * <p>Primitive fields cannot tell a signed from an unsigned type by their Java type (a {@code short}
 * holds a Byte or an Int16), so primitives get values valid for both: shorts 0..255, ints 0..65535,
 * longs 0..2^32-1.
 *
 * <p>Public for the UA JSON tests, which use the {@linkplain #RandomValues(long, boolean) text-safe} mode: it
 * leaves out the few values whose difference the text forms of UA JSON cannot carry (a null String or ByteString
 * NodeId identifier against an empty one, a null QualifiedName name in a namespace other than 0, an empty
 * LocalizedText part against a missing one: Part 6, 5.1.12 and 5.4.2.15).
 */
public final class RandomValues {

    private static final String ALPHABET = "abcXYZ019 _-.;=/äöüß€漢字😀";

    private final Random random;
    private final boolean textSafe;

    RandomValues(long seed) {
        this(seed, false);
    }

    /** @param textSafe leave out the values UA JSON's text forms cannot tell apart (see the class comment) */
    public RandomValues(long seed, boolean textSafe) {
        this.random = new Random(seed);
        this.textSafe = textSafe;
    }

    public Random random() {
        return random;
    }

    /** A random instance of a generated structure, built through its public all-fields constructor. */
    public <T> T structure(Class<T> type, int depth) {
        Constructor<?> constructor = Arrays.stream(type.getConstructors())
                .max(Comparator.comparingInt(Constructor::getParameterCount))
                .orElseThrow(() -> new IllegalStateException(type + " has no public constructor"));
        Class<?>[] parameters = constructor.getParameterTypes();
        Object[] args = new Object[parameters.length];
        for (int i = 0; i < parameters.length; i++) {
            args[i] = value(parameters[i], depth + 1);
        }
        try {
            return type.cast(constructor.newInstance(args));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot construct " + type, e);
        }
    }

    public Object value(Class<?> type, int depth) {
        if (type.isArray()) {
            if (random.nextInt(8) == 0) {
                return null;
            }
            int length = depth > 3 ? 0 : random.nextInt(4);
            Object array = Array.newInstance(type.getComponentType(), length);
            for (int i = 0; i < length; i++) {
                Array.set(array, i, value(type.getComponentType(), depth + 1));
            }
            return array;
        }
        if (type == boolean.class) {
            return random.nextBoolean();
        }
        if (type == byte.class) {
            return (byte) random.nextInt();
        }
        if (type == short.class) {
            return (short) random.nextInt(256);
        }
        if (type == int.class) {
            return random.nextInt(65_536);
        }
        if (type == long.class) {
            return random.nextLong() & 0xFFFFFFFFL;
        }
        if (type == float.class) {
            return random.nextFloat() * 1000f - 500f;
        }
        if (type == double.class) {
            return random.nextDouble() * 1e6 - 5e5;
        }
        if (type == String.class) {
            return string();
        }
        if (type == DateTime.class) {
            return dateTime();
        }
        if (type == UUID.class) {
            return new UUID(random.nextLong(), random.nextLong());
        }
        if (type == ByteString.class) {
            return byteString();
        }
        if (type == XmlElement.class) {
            return random.nextInt(4) == 0 ? XmlElement.NULL : XmlElement.of("<a>" + string() + "</a>");
        }
        if (type == NodeId.class) {
            return nodeId();
        }
        if (type == ExpandedNodeId.class) {
            return expandedNodeId();
        }
        if (type == StatusCode.class) {
            return StatusCode.of(random.nextInt());
        }
        if (type == QualifiedName.class) {
            int ns = random.nextInt(5);
            String name = string();
            return QualifiedName.of(ns, textSafe && ns != 0 && name == null ? "q" : name);
        }
        if (type == LocalizedText.class) {
            String text = string();
            return LocalizedText.of(random.nextBoolean() ? "en-US" : null, textSafe && "".equals(text) ? null : text);
        }
        if (type == ExtensionObject.class) {
            return extensionObject(depth);
        }
        if (type == DataValue.class) {
            return dataValue(depth);
        }
        if (type == Variant.class) {
            return variant(depth);
        }
        if (type == DiagnosticInfo.class) {
            return diagnosticInfo(depth);
        }
        if (type.isEnum()) {
            Object[] constants = type.getEnumConstants();
            return constants[random.nextInt(constants.length)];
        }
        if (!Modifier.isAbstract(type.getModifiers())) {
            return structure(type, depth);
        }
        throw new IllegalArgumentException("no random value for " + type);
    }

    String string() {
        int kind = random.nextInt(6);
        if (kind == 0) {
            return null;
        }
        if (kind == 1) {
            return "";
        }
        int length = 1 + random.nextInt(12);
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.appendCodePoint(ALPHABET.codePointAt(ALPHABET.offsetByCodePoints(0,
                    random.nextInt(ALPHABET.codePointCount(0, ALPHABET.length())))));
        }
        return sb.toString();
    }

    DateTime dateTime() {
        switch (random.nextInt(4)) {
            case 0:
                return DateTime.MIN_VALUE;
            case 1:
                return DateTime.MAX_VALUE;
            default:
                return DateTime.ofTicks(1 + (random.nextLong() & 0x00FF_FFFF_FFFF_FFFFL));
        }
    }

    ByteString byteString() {
        int length = random.nextInt(6) - 1;
        if (length < 0) {
            return ByteString.NULL;
        }
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return ByteString.wrap(bytes);
    }

    NodeId nodeId() {
        int ns = random.nextInt(3) == 0 ? 0 : random.nextInt(70_000) % 65_536;
        switch (random.nextInt(6)) {
            case 0:
                return NodeId.ns0(random.nextInt(256));
            case 1:
                return NodeId.numeric(random.nextInt(256), random.nextInt(65_536));
            case 2:
                return NodeId.numeric(ns, random.nextLong() & 0xFFFFFFFFL);
            case 3:
                String id = string();
                return NodeId.string(ns, textSafe && id == null ? "" : id);
            case 4:
                return NodeId.guid(ns, new UUID(random.nextLong(), random.nextLong()));
            default:
                ByteString bytes = byteString();
                return NodeId.opaque(ns, textSafe && bytes.isNull() ? ByteString.EMPTY : bytes);
        }
    }

    ExpandedNodeId expandedNodeId() {
        NodeId id = nodeId();
        switch (random.nextInt(3)) {
            case 0:
                return ExpandedNodeId.of(id);
            case 1:
                return ExpandedNodeId.of(id, "urn:test:" + random.nextInt(100), 0);
            default:
                return ExpandedNodeId.of(id, random.nextBoolean() ? null : "urn:x", 1 + (random.nextLong() & 0x7FFFFFFFL));
        }
    }

    ExtensionObject extensionObject(int depth) {
        switch (depth > 4 ? 0 : random.nextInt(4)) {
            case 0:
                return ExtensionObject.NULL;
            case 1:
                return ExtensionObject.of(structure(Argument.class, depth + 1));
            case 2:
                return ExtensionObject.ofBinary(NodeId.numeric(7, 4242), byteString());
            default:
                return ExtensionObject.ofXml(NodeId.numeric(7, 4243), XmlElement.of("<x/>"));
        }
    }

    public DataValue dataValue(int depth) {
        return DataValue.of(variant(depth + 1), random.nextBoolean() ? StatusCode.GOOD : StatusCode.of(random.nextInt()),
                random.nextBoolean() ? null : dateTime(), random.nextInt(10_000),
                random.nextBoolean() ? null : dateTime(), random.nextInt(10_000));
    }

    DiagnosticInfo diagnosticInfo(int depth) {
        if (random.nextInt(3) == 0) {
            return DiagnosticInfo.NULL;
        }
        return DiagnosticInfo.of(random.nextInt(10) - 1, random.nextInt(10) - 1, random.nextInt(10) - 1,
                random.nextInt(10) - 1, random.nextBoolean() ? null : string(),
                random.nextBoolean() ? null : StatusCode.of(random.nextInt()),
                depth > 4 || random.nextBoolean() ? null : diagnosticInfo(depth + 1));
    }

    public Variant variant(int depth) {
        BuiltinType type = BuiltinType.fromTypeId(random.nextInt(depth > 4 ? 22 : 26));
        if (type == BuiltinType.Null) {
            return Variant.NULL;
        }
        boolean array = type == BuiltinType.Variant || random.nextInt(3) == 0;
        if (!array) {
            Object scalar = scalar(type, depth);
            return scalar == null ? Variant.NULL : Variant.ofScalar(type, scalar);
        }
        int length = random.nextInt(4);
        Object values = Array.newInstance(type.arrayClass().getComponentType(), length);
        for (int i = 0; i < length; i++) {
            Object element = scalar(type, depth + 1);
            if (element == null && type.arrayClass().getComponentType().isPrimitive()) {
                continue;
            }
            Array.set(values, i, element);
        }
        if (length == 4 || (length == 0 && random.nextBoolean())) {
            return Variant.ofMatrix(type, values, length == 4 ? new int[] {2, 2} : new int[] {0, 3});
        }
        return Variant.ofArray(type, values);
    }

    private Object scalar(BuiltinType type, int depth) {
        switch (type) {
            case Boolean:
                return random.nextBoolean();
            case SByte:
                return (byte) random.nextInt();
            case Byte:
                return (short) random.nextInt(256);
            case Int16:
                return (short) random.nextInt();
            case UInt16:
                return random.nextInt(65_536);
            case Int32:
                return random.nextInt();
            case UInt32:
                return random.nextLong() & 0xFFFFFFFFL;
            case Int64:
            case UInt64:
                return random.nextLong();
            case Float:
                return random.nextFloat();
            case Double:
                return random.nextDouble();
            case Variant:
                return variant(depth + 1);
            default:
                Object value = value(type.scalarClass(), depth);
                if (value == null) {
                    return type == BuiltinType.String ? "" : null;
                }
                return value;
        }
    }
}
