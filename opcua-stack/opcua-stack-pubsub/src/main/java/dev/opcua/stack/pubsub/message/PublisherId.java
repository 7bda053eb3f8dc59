package dev.opcua.stack.pubsub.message;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import java.util.Objects;

/**
 * Identifies a publisher (Part 14, 6.2.7.1): a Byte, UInt16, UInt32, UInt64 or String, unique among the
 * publishers a subscriber hears. Unsigned values are held in the next wider Java type ({@code long} for
 * UInt64 bit patterns).
 *
 * @param type the built-in type the id is encoded as
 * @param value a {@code Short} (Byte), {@code Integer} (UInt16), {@code Long} (UInt32, UInt64) or {@code String}
 */
public record PublisherId(BuiltinType type, Object value) {

    public PublisherId {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(value, "value");
        switch (type) {
            case Byte -> checkRange(type, value, Short.class, 0xFF);
            case UInt16 -> checkRange(type, value, Integer.class, 0xFFFF);
            case UInt32 -> checkRange(type, value, Long.class, 0xFFFF_FFFFL);
            case UInt64 -> {
                if (!(value instanceof Long)) {
                    throw new IllegalArgumentException("a UInt64 PublisherId is a Long, was " + value.getClass());
                }
            }
            case String -> {
                if (!(value instanceof String s) || s.isEmpty()) {
                    throw new IllegalArgumentException("a String PublisherId is a non-empty String, was " + value);
                }
            }
            default -> throw new IllegalArgumentException("a PublisherId is a Byte, UInt16, UInt32, UInt64 or String,"
                    + " not " + type);
        }
    }

    private static void checkRange(BuiltinType type, Object value, Class<?> javaType, long max) {
        if (!javaType.isInstance(value)) {
            throw new IllegalArgumentException("a " + type + " PublisherId is a " + javaType.getSimpleName()
                    + ", was " + value.getClass().getSimpleName());
        }
        long v = ((Number) value).longValue();
        if (v < 0 || v > max) {
            throw new IllegalArgumentException("a " + type + " PublisherId is 0.." + max + ", was " + v);
        }
    }

    public static PublisherId ofByte(int value) {
        return new PublisherId(BuiltinType.Byte, (short) value);
    }

    public static PublisherId ofUInt16(int value) {
        return new PublisherId(BuiltinType.UInt16, value);
    }

    public static PublisherId ofUInt32(long value) {
        return new PublisherId(BuiltinType.UInt32, value);
    }

    public static PublisherId ofUInt64(long value) {
        return new PublisherId(BuiltinType.UInt64, value);
    }

    public static PublisherId ofString(String value) {
        return new PublisherId(BuiltinType.String, value);
    }

    /** The id as text: the decimal number (UInt64 unsigned) or the string; used in MQTT topics. */
    @Override
    public String toString() {
        return type == BuiltinType.UInt64 ? Long.toUnsignedString((Long) value) : value.toString();
    }
}
