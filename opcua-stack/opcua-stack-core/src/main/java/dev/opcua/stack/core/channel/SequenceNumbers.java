package dev.opcua.stack.core.channel;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;

/**
 * Sequence numbers of one direction of a secure channel (Part 6, 6.7.2.4): incremented by exactly one
 * per chunk, never reset by a new token. With the legacy rules (SecurityPolicy None and the RSA
 * policies) a sender starts at 1 and wraps to 1; the ECC policies (LegacySequenceNumbers FALSE) start at
 * 0 and wrap to 0 only after UInt32.MaxValue ({@link #startNonLegacy()}). A receiver accepts any first
 * number, then the previous plus one, or a number below 1024 after one above 4 294 966 271 (which covers
 * both rules' wrap).
 *
 * <p>Not thread-safe: the owner serialises access (the event loop for received numbers, the
 * channel's send lock for sent numbers).
 */
public final class SequenceNumbers {

    /** Numbers may wrap only once they are greater than this (UInt32 max - 1024). */
    public static final long WRAP_THRESHOLD = 4_294_966_271L;
    /** The first number after a wrap is below this. */
    public static final long WRAPPED_BELOW = 1024;
    private static final long UINT32_MAX = 0xFFFF_FFFFL;

    private long next;
    private boolean legacy = true;
    private boolean started;
    private long lastReceived = -1;

    /** A sender starting at {@code first} (1 by default). */
    public SequenceNumbers(long first) {
        this.next = first;
    }

    public SequenceNumbers() {
        this(1);
    }

    /** The number for the next chunk sent. */
    public long nextToSend() {
        started = true;
        long n = next;
        next = n == UINT32_MAX ? (legacy ? 1 : 0) : n + 1;
        return n;
    }

    /**
     * Switches a sender that has not sent yet to the rules of LegacySequenceNumbers FALSE: start at 0,
     * wrap to 0 after UInt32.MaxValue (the ECC policies, Part 6, 6.7.2.4).
     *
     * @throws IllegalStateException once a number was sent
     */
    public void startNonLegacy() {
        if (started) {
            throw new IllegalStateException("sequence numbers were sent already; the rules are chosen before the first");
        }
        legacy = false;
        next = 0;
    }

    /**
     * Checks the number of a received chunk: the first may be any value, each later one must be the
     * previous plus one, or below 1024 after a previous number above the wrap threshold.
     *
     * @throws UaException BadSequenceNumberInvalid naming both numbers
     */
    public void checkReceived(long sequenceNumber) {
        long last = lastReceived;
        boolean valid = last < 0 || sequenceNumber == last + 1
                || (last > WRAP_THRESHOLD && sequenceNumber < WRAPPED_BELOW);
        if (!valid) {
            throw new UaException(StatusCodes.BadSequenceNumberInvalid,
                    "sequence number " + sequenceNumber + " does not follow " + last);
        }
        lastReceived = sequenceNumber;
    }
}
