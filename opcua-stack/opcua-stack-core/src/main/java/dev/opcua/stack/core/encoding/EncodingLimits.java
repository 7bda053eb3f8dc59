package dev.opcua.stack.core.encoding;

/**
 * Bounds that a decoder enforces on what a peer sends (Part 6, 5.2.1 and the TransportQuotas of the
 * OPC Foundation stack). Exceeding one is {@code BadEncodingLimitsExceeded}.
 *
 * @param maxStringLength most UTF-8 bytes in one String
 * @param maxByteStringLength most bytes in one ByteString or XmlElement
 * @param maxArrayLength most elements in one array
 * @param maxNestingDepth most levels of structures, Variants, ExtensionObjects and DiagnosticInfos
 *        nested inside each other
 */
public record EncodingLimits(int maxStringLength, int maxByteStringLength, int maxArrayLength, int maxNestingDepth) {

    /** The defaults: 65535-byte strings, 1 MiB byte strings, 65535 array elements, 200 levels. */
    public static final EncodingLimits DEFAULT = new EncodingLimits(65_535, 1 << 20, 65_535, 200);

    public EncodingLimits {
        requirePositive("maxStringLength", maxStringLength);
        requirePositive("maxByteStringLength", maxByteStringLength);
        requirePositive("maxArrayLength", maxArrayLength);
        requirePositive("maxNestingDepth", maxNestingDepth);
    }

    private static void requirePositive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be greater than 0, was " + value);
        }
    }
}
