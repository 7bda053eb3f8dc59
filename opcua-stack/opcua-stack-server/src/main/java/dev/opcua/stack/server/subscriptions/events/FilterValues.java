package dev.opcua.stack.server.subscriptions.events;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import java.util.UUID;

/**
 * Comparison of operand values under the conversion rules of Part 4, 7.7.3: when two operands are
 * of different types, the one of lower precedence (Table "Data precedence rules": Double, Float,
 * Int64, UInt64, Int32, UInt32, StatusCode, Int16, UInt16, SByte, Byte, Boolean, Guid, String,
 * ExpandedNodeId, NodeId, LocalizedText, QualifiedName) is converted implicitly to the type of the
 * other. A conversion that does not exist, or fails because the value is out of range, makes the
 * comparison {@link #INCOMPARABLE}, which the operators answer FALSE.
 *
 * <p>Numbers are compared in primitives after a range check against the target type, so a
 * comparison allocates nothing. Strings do not convert to numbers implicitly ({@code "5"} is not 5);
 * LocalizedText and QualifiedName convert to String (their text and name). Ordering applies to
 * numbers, Strings (ordinal), DateTimes and Guids; other types and arrays compare for equality only.
 */
final class FilterValues {

    /** The result of a comparison that has no answer: no implicit conversion, or a failed one. */
    static final int INCOMPARABLE = Integer.MIN_VALUE;

    private FilterValues() {
    }

    /**
     * Whether the value counts as null for IsNull and for the NULL of three-valued logic: the null
     * Variant and null values of the nullable built-in types.
     */
    static boolean isNull(Variant v) {
        if (v.isNull()) {
            return true;
        }
        Object value = v.value();
        return value instanceof ByteString b && b.isNull()
                || value instanceof LocalizedText t && t.isNull()
                || value instanceof QualifiedName q && q.isNull()
                || value instanceof NodeId n && n.isNull()
                || value instanceof ExpandedNodeId x && x.isNull();
    }

    /**
     * Compares two non-null values.
     *
     * @param ordered whether an order is needed (GreaterThan ...); when false only zero (equal) or
     *        non-zero matters
     * @return negative, zero or positive, or {@link #INCOMPARABLE}
     */
    static int compare(Variant a, Variant b, boolean ordered) {
        if (a.isArray() || b.isArray()) {
            if (ordered) {
                return INCOMPARABLE;
            }
            return a.equals(b) ? 0 : 1;
        }
        BuiltinType ta = a.type();
        BuiltinType tb = b.type();
        if (isNumeric(ta) && isNumeric(tb)) {
            return compareNumbers(ta, a.value(), tb, b.value());
        }
        if (ta == tb) {
            return compareSameType(ta, a.value(), b.value(), ordered);
        }
        String sa = implicitString(ta, a.value(), tb);
        String sb = implicitString(tb, b.value(), ta);
        if (sa != null && sb != null) {
            return Integer.signum(sa.compareTo(sb));
        }
        if (ta == BuiltinType.Guid && tb == BuiltinType.String) {
            return compareGuid((UUID) a.value(), (String) b.value(), false);
        }
        if (tb == BuiltinType.Guid && ta == BuiltinType.String) {
            return compareGuid((UUID) b.value(), (String) a.value(), true);
        }
        if (!ordered && isNodeId(ta) && isNodeId(tb)) {
            return expanded(a.value()).equals(expanded(b.value())) ? 0 : 1;
        }
        return INCOMPARABLE;
    }

    /**
     * The value as a String where Like needs one: a String, a LocalizedText's text, a QualifiedName's
     * name; null for any other type.
     */
    static String asString(Variant v) {
        Object value = v.value();
        if (v.isArray()) {
            return null;
        }
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof LocalizedText t) {
            return t.text();
        }
        if (value instanceof QualifiedName q) {
            return q.name();
        }
        return null;
    }

    /**
     * A value's String form when it meets a value of type {@code other} and String is the common type:
     * String itself, and LocalizedText, QualifiedName, NodeId and ExpandedNodeId meeting a String
     * (String has the higher precedence). Also LocalizedText meeting QualifiedName: both as text.
     */
    private static String implicitString(BuiltinType type, Object value, BuiltinType other) {
        boolean otherText = other == BuiltinType.String || other == BuiltinType.LocalizedText
                || other == BuiltinType.QualifiedName;
        switch (type) {
            case String:
                return isNodeId(other) || otherText ? (String) value : null;
            case LocalizedText:
                return otherText ? ((LocalizedText) value).text() : null;
            case QualifiedName:
                return otherText ? ((QualifiedName) value).name() : null;
            case NodeId:
            case ExpandedNodeId:
                return other == BuiltinType.String ? value.toString() : null;
            default:
                return null;
        }
    }

    private static int compareGuid(UUID guid, String text, boolean swapped) {
        UUID other;
        try {
            other = UUID.fromString(text);
        } catch (IllegalArgumentException e) {
            return INCOMPARABLE;
        }
        int c = Integer.signum(guid.compareTo(other));
        return swapped ? -c : c;
    }

    private static boolean isNodeId(BuiltinType t) {
        return t == BuiltinType.NodeId || t == BuiltinType.ExpandedNodeId;
    }

    private static ExpandedNodeId expanded(Object value) {
        return value instanceof NodeId n ? ExpandedNodeId.of(n) : (ExpandedNodeId) value;
    }

    private static int compareSameType(BuiltinType type, Object x, Object y, boolean ordered) {
        switch (type) {
            case String:
                return Integer.signum(((String) x).compareTo((String) y));
            case DateTime:
                return Integer.signum(((DateTime) x).compareTo((DateTime) y));
            case Guid:
                return Integer.signum(((UUID) x).compareTo((UUID) y));
            case LocalizedText:
                if (ordered) {
                    String tx = ((LocalizedText) x).text();
                    String ty = ((LocalizedText) y).text();
                    return tx == null || ty == null ? INCOMPARABLE : Integer.signum(tx.compareTo(ty));
                }
                return x.equals(y) ? 0 : 1;
            default:
                if (ordered) {
                    return INCOMPARABLE;
                }
                return x.equals(y) ? 0 : 1;
        }
    }

    static boolean isNumeric(BuiltinType t) {
        return rank(t) <= 12;
    }

    /** Precedence of the numeric types, 1 (Double) highest; 99 for the others. */
    private static int rank(BuiltinType t) {
        return switch (t) {
            case Double -> 1;
            case Float -> 2;
            case Int64 -> 3;
            case UInt64 -> 4;
            case Int32 -> 5;
            case UInt32 -> 6;
            case StatusCode -> 7;
            case Int16 -> 8;
            case UInt16 -> 9;
            case SByte -> 10;
            case Byte -> 11;
            case Boolean -> 12;
            default -> 99;
        };
    }

    private static int compareNumbers(BuiltinType ta, Object va, BuiltinType tb, Object vb) {
        BuiltinType target = rank(ta) <= rank(tb) ? ta : tb;
        switch (target) {
            case Double:
                return compareDoubles(toDouble(ta, va), toDouble(tb, vb));
            case Float:
                return compareDoubles((float) toDouble(ta, va), (float) toDouble(tb, vb));
            case UInt64: {
                long x = bits(ta, va);
                long y = bits(tb, vb);
                // A signed value below zero has no UInt64 form.
                if (x < 0 && ta != BuiltinType.UInt64 || y < 0 && tb != BuiltinType.UInt64) {
                    return INCOMPARABLE;
                }
                return Integer.signum(Long.compareUnsigned(x, y));
            }
            default: {
                long x = bits(ta, va);
                long y = bits(tb, vb);
                if (!fits(ta, x, target) || !fits(tb, y, target)) {
                    return INCOMPARABLE;
                }
                return Long.compare(x, y);
            }
        }
    }

    private static int compareDoubles(double x, double y) {
        if (x < y) {
            return -1;
        }
        if (x > y) {
            return 1;
        }
        return x == y ? 0 : INCOMPARABLE; // NaN equals nothing
    }

    /** Whether an integral value (its bits as {@link #bits} gives them) converts to the target type. */
    private static boolean fits(BuiltinType source, long x, BuiltinType target) {
        if (source == BuiltinType.UInt64 && x < 0) {
            return false; // above Long.MAX_VALUE: fits no signed target
        }
        return switch (target) {
            case Int64 -> true;
            case Int32 -> x >= Integer.MIN_VALUE && x <= Integer.MAX_VALUE;
            case UInt32, StatusCode -> x >= 0 && x <= 0xFFFF_FFFFL;
            case Int16 -> x >= Short.MIN_VALUE && x <= Short.MAX_VALUE;
            case UInt16 -> x >= 0 && x <= 0xFFFF;
            case SByte -> x >= Byte.MIN_VALUE && x <= Byte.MAX_VALUE;
            case Byte -> x >= 0 && x <= 0xFF;
            case Boolean -> x == 0 || x == 1;
            default -> false;
        };
    }

    /** An integral value as a long: UInt64 as its bits, Boolean as 0 or 1, StatusCode as its UInt32 value. */
    private static long bits(BuiltinType type, Object value) {
        return switch (type) {
            case Boolean -> (Boolean) value ? 1 : 0;
            case SByte -> (Byte) value;
            case Byte, Int16 -> (Short) value;
            case UInt16, Int32 -> (Integer) value;
            case UInt32, Int64, UInt64 -> (Long) value;
            case StatusCode -> ((StatusCode) value).unsignedValue();
            default -> throw new IllegalArgumentException(type + " is not an integral type");
        };
    }

    private static double toDouble(BuiltinType type, Object value) {
        switch (type) {
            case Double:
                return (Double) value;
            case Float:
                return (Float) value;
            case UInt64: {
                long x = (Long) value;
                return x >= 0 ? x : ((x >>> 1) | (x & 1)) * 2.0;
            }
            default:
                return bits(type, value);
        }
    }
}
