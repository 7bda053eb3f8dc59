package dev.opcua.spring.boot.observation;

import dev.opcua.stack.core.ids.StatusCodes;

/** How server and client observations name a StatusCode in their tags: one spelling for both. */
final class StatusNames {

    private StatusNames() {
    }

    /** The specification's name of a StatusCode (its info bits ignored), or {@code 0x} and eight hex digits. */
    static String of(long code) {
        String name = StatusCodes.name((int) code);
        return name != null ? name : String.format("0x%08X", code & 0xFFFF_FFFFL);
    }

    /** Severity Good: the two top bits clear (Part 4, 7.39.1). */
    static boolean isGood(long code) {
        return (code & 0xC000_0000L) == 0;
    }
}
