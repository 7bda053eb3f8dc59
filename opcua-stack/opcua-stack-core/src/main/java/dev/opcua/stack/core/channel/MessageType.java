package dev.opcua.stack.core.channel;

/**
 * The message types of the UA TCP header (Part 6, 7.1.2.2, Table 71) and the secure conversation
 * header (Part 6, 6.7.2.2): three ASCII bytes, read here as one little-endian int of the first three
 * header bytes.
 */
public enum MessageType {
    /** Hello, client to server (Part 6, 7.1.2.3). */
    HEL,
    /** Acknowledge, server to client (Part 6, 7.1.2.4). */
    ACK,
    /** Error (Part 6, 7.1.2.5). */
    ERR,
    /** ReverseHello, server to client on a server-opened connection (Part 6, 7.1.2.6). */
    RHE,
    /** OpenSecureChannel request or response, asymmetric security header (Part 6, 6.7.4). */
    OPN,
    /** A service message secured with the channel token (Part 6, 6.7.2). */
    MSG,
    /** CloseSecureChannel request (Part 6, 7.1.4). */
    CLO;

    private final int code;

    MessageType() {
        String n = name();
        this.code = n.charAt(0) | (n.charAt(1) << 8) | (n.charAt(2) << 16);
    }

    /** The three ASCII bytes as the low 24 bits of a little-endian int. */
    public int code() {
        return code;
    }

    /** The type whose code is the low 24 bits of {@code headerInt} (first 4 header bytes, little-endian), or null. */
    public static MessageType fromHeader(int headerInt) {
        int code = headerInt & 0x00FFFFFF;
        for (MessageType t : VALUES) {
            if (t.code == code) {
                return t;
            }
        }
        return null;
    }

    /**
     * The three type bytes of a header int for error messages: {@code 'MSG'} when printable ASCII,
     * else their hex in wire order.
     */
    public static String describe(int headerInt) {
        int b0 = headerInt & 0xFF;
        int b1 = (headerInt >>> 8) & 0xFF;
        int b2 = (headerInt >>> 16) & 0xFF;
        if (isPrintable(b0) && isPrintable(b1) && isPrintable(b2)) {
            return "'" + (char) b0 + (char) b1 + (char) b2 + "'";
        }
        return String.format("0x%02X%02X%02X", b0, b1, b2);
    }

    /** One header byte for error messages: {@code 'F'} when printable ASCII, else hex. */
    public static String describeByte(int b) {
        return isPrintable(b) ? "'" + (char) b + "'" : String.format("0x%02X", b);
    }

    private static boolean isPrintable(int b) {
        return b >= 0x20 && b <= 0x7E;
    }

    private static final MessageType[] VALUES = values();
}
