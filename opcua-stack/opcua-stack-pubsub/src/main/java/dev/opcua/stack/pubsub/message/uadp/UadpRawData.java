package dev.opcua.stack.pubsub.message.uadp;

import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.FieldMetaData;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * The RawData field encoding (Part 14, 7.2.4.5.11): a field is written as the bare binary encoding of the
 * built-in type its {@link FieldMetaData} names (Part 6, 5.2.2), without the Variant's type byte, and Strings
 * and ByteStrings are padded with zero bytes up to the field's MaxStringLength so that every field sits at a
 * fixed offset.
 *
 * <p>Supported: scalars (ValueRank -1) of the fixed-size built-in types (Boolean to Double, DateTime, Guid,
 * StatusCode) and of String and ByteString. Arrays (padded to ArrayDimensions), structures (encoded with their
 * optional fields padded) and the other built-in types are refused with an error naming the field: reading
 * them needs the data type definitions, and guessing would misplace every later field.
 */
final class UadpRawData {

    private UadpRawData() {
    }

    /** Whether the field's type and ValueRank are ones this class encodes; {@code null} when they are. */
    static String unsupported(FieldMetaData field) {
        if (field.valueRank() != -1) {
            return "ValueRank " + field.valueRank() + " (RawData arrays are not supported, only scalars)";
        }
        BuiltinType type = BuiltinType.fromTypeId(field.builtInType());
        if (type == null || !supported(type)) {
            return "built-in type " + (type == null ? "id " + field.builtInType() : type)
                    + " (RawData supports the fixed-size scalar types, String and ByteString)";
        }
        return null;
    }

    private static boolean supported(BuiltinType type) {
        return switch (type) {
            case Boolean, SByte, Byte, Int16, UInt16, Int32, UInt32, Int64, UInt64, Float, Double, DateTime, Guid,
                    StatusCode, String, ByteString -> true;
            default -> false;
        };
    }

    /**
     * Writes one field.
     *
     * @param path the field's place in the message, for errors
     * @throws UaEncodingException {@code BadEncodingError} when the value does not fit the metadata
     */
    static void write(UaEncoder encoder, String path, FieldMetaData field, Variant value) {
        String why = unsupported(field);
        if (why != null) {
            throw UaEncodingException.encodingError(path + " (" + field.name() + "): cannot encode as RawData: " + why);
        }
        BuiltinType type = BuiltinType.fromTypeId(field.builtInType());
        boolean string = type == BuiltinType.String || type == BuiltinType.ByteString;
        if (string && value.isNull()) {
            writePadded(encoder.buffer(), path, field, null);
            return;
        }
        if (value.isNull() || value.isArray() || value.type() != type) {
            throw UaEncodingException.encodingError(path + " (" + field.name() + "): RawData needs a scalar " + type
                    + " as the metadata says, was " + describe(value));
        }
        if (string) {
            byte[] bytes = type == BuiltinType.String
                    ? ((String) value.value()).getBytes(StandardCharsets.UTF_8)
                    : ((ByteString) value.value()).unsafeBytes();
            writePadded(encoder.buffer(), path, field, bytes);
            return;
        }
        encoder.writeField(field.name(), type, value.value(), false);
    }

    private static void writePadded(ByteBuf buf, String path, FieldMetaData field, byte[] bytes) {
        long max = field.maxStringLength();
        int length = bytes == null ? -1 : bytes.length;
        if (max > Integer.MAX_VALUE - 4) {
            throw UaEncodingException.encodingError(path + " (" + field.name() + "): MaxStringLength " + max
                    + " cannot be padded to");
        }
        if (max > 0 && length > max) {
            throw UaEncodingException.encodingError(path + " (" + field.name() + "): " + length
                    + " bytes exceed the metadata's MaxStringLength " + max);
        }
        buf.writeIntLE(length);
        if (bytes != null) {
            buf.writeBytes(bytes);
        }
        if (max > 0) {
            buf.writeZero((int) (max - Math.max(length, 0)));
        }
    }

    /**
     * Reads one field.
     *
     * @throws UaEncodingException {@code BadDecodingError} for truncated input, a type this class does not
     *     read, or a string longer than its MaxStringLength; {@code BadEncodingLimitsExceeded} past the limits
     */
    static Variant read(UaDecoder decoder, String path, FieldMetaData field) {
        String why = unsupported(field);
        if (why != null) {
            throw UaEncodingException.decodingError(path + " (" + field.name() + "): cannot decode RawData: " + why);
        }
        BuiltinType type = BuiltinType.fromTypeId(field.builtInType());
        if (type == BuiltinType.String || type == BuiltinType.ByteString) {
            return readPadded(decoder, path, field, type);
        }
        return Variant.ofScalar(type, decoder.readField(path, type, false));
    }

    private static Variant readPadded(UaDecoder decoder, String path, FieldMetaData field, BuiltinType type) {
        ByteBuf buf = decoder.buffer();
        int start = buf.readerIndex();
        Variant value = type == BuiltinType.String
                ? Variant.ofScalar(type, decoder.readString(path))
                : Variant.ofScalar(type, decoder.readByteString(path));
        long max = field.maxStringLength();
        if (max > 0) {
            // Int32 length, then MaxStringLength bytes whatever the actual length (null included).
            long used = buf.readerIndex() - start - 4L;
            if (used > max) {
                throw UaEncodingException.decodingError(path + " (" + field.name() + "): " + used
                        + " bytes exceed the metadata's MaxStringLength " + max);
            }
            long padding = max - used;
            if (padding > buf.readableBytes()) {
                throw UaEncodingException.decodingError(path + " (" + field.name() + "): padding to MaxStringLength "
                        + max + " needs " + padding + " bytes but only " + buf.readableBytes() + " remain");
            }
            buf.skipBytes((int) padding);
        }
        return value;
    }

    private static String describe(Variant value) {
        if (value.isNull()) {
            return "null";
        }
        return value.isArray() ? "an array of " + value.type() : "a " + value.type();
    }
}
