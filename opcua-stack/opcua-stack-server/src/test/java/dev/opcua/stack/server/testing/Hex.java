package dev.opcua.stack.server.testing;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/** Golden byte vectors written as commented hex fields. */
public final class Hex {

    private Hex() {
    }

    /** The bytes of hex fields such as {@code "48 45 4C"}; spaces are ignored. */
    public static byte[] bytes(String... fields) {
        return HexFormat.of().parseHex(String.join("", fields).replace(" ", ""));
    }

    /** The hex of a string's ASCII bytes, to write text fields readably. */
    public static String ascii(String text) {
        return HexFormat.of().formatHex(text.getBytes(StandardCharsets.US_ASCII));
    }

    /** Concatenation of byte arrays. */
    public static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] all = new byte[length];
        int offset = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, offset, part.length);
            offset += part.length;
        }
        return all;
    }
}
